import { createHash, type Hash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { AppError, REQUEST_TOO_LARGE } from "../errors.js";

/** The SHA-256 of a request's body bytes as sent (before any decompression), and their number. */
export interface BodyDigest {
  sha256: Buffer;
  bytes: number;
}

/**
 * Hashes a request's body as it arrives, whoever reads it (the JSON parser, a multipart parser, nobody) and without
 * keeping it: Node's HTTP parser hands every chunk of a body to the request's `push()` (and `push(null)` at its
 * end), so the tap wraps that method of this one request. It must be put on before the first chunk is pushed, which
 * happens once the 'request' event's synchronous handlers return: app.ts installs it in its first middleware.
 */
export class RequestBodyTap {
  private readonly hash: Hash = createHash("sha256");
  private digest: BodyDigest | undefined;
  private bytes = 0;
  private ended = false;
  /** False when some of the body was buffered before the tap was put on: its digest cannot be trusted. */
  readonly intact: boolean;
  private readonly endWaiters = new Set<() => void>();

  constructor(private readonly req: IncomingMessage) {
    this.intact = req.readableLength === 0 && req.readableFlowing === null && !req.complete;
    const push = req.push.bind(req);
    req.push = (chunk: unknown, encoding?: BufferEncoding) => {
      if (chunk === null) {
        this.ended = true;
        for (const wake of this.endWaiters) wake();
      } else if (!this.ended) {
        const bytes = typeof chunk === "string" ? Buffer.from(chunk, encoding) : (chunk as Uint8Array);
        this.bytes += bytes.length;
        this.hash.update(bytes);
      }
      return push(chunk, encoding);
    };
  }

  /** Every byte of the body arrived (it may not have been read yet). */
  get received(): boolean {
    return this.ended;
  }

  /**
   * The body was handed whole to whoever handles the request: read to its end, or empty. A request cut off before
   * that (the client gone, its buffered bytes dropped) may have been answered from a part of it, or not at all.
   */
  get delivered(): boolean {
    return this.req.readableEnded || (this.ended && this.bytes === 0);
  }

  /** The request was cut off before its body was delivered: the client went away, or it broke off the upload. */
  get cutOff(): boolean {
    return !this.delivered && (this.req.destroyed || this.req.readableAborted);
  }

  /** The digest of the whole body once received. */
  digestOf(): BodyDigest {
    if (!this.ended) throw new Error("the request body is not received yet");
    this.digest ??= { sha256: this.hash.digest(), bytes: this.bytes };
    return this.digest;
  }

  /**
   * Receives the rest of the body no handler read (dropping it), for its digest: at most `maxBytes` in all, else 413
   * `Requisição muito grande`; a request cut off meanwhile rejects with 400 `Requisição interrompida`.
   */
  async receiveRest(maxBytes: number): Promise<BodyDigest> {
    if (!this.intact) throw new Error("the request body was partly read before its tap was put on");
    if (!this.ended) {
      await new Promise<void>((resolve, reject) => {
        const cleanUp = () => {
          this.endWaiters.delete(done);
          this.req.off("data", watch);
          this.req.off("close", closed);
        };
        const done = () => {
          cleanUp();
          resolve();
        };
        const closed = () => {
          if (this.ended) return done();
          cleanUp();
          reject(new AppError(400, "Requisição interrompida"));
        };
        const watch = () => {
          if (this.bytes <= maxBytes) return;
          cleanUp();
          this.req.pause();
          reject(new AppError(413, REQUEST_TOO_LARGE));
        };
        this.endWaiters.add(done);
        this.req.on("data", watch);
        this.req.on("close", closed);
        if (this.req.destroyed) closed();
        else this.req.resume();
      });
    }
    if (this.bytes > maxBytes) throw new AppError(413, REQUEST_TOO_LARGE);
    return this.digestOf();
  }
}
