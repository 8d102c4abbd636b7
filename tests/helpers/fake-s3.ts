import { createHash, createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

export interface FakeS3Object {
  body: Buffer;
  contentType: string | undefined;
  cacheControl: string | undefined;
  etag: string;
  lastModified: Date;
}

export interface FakeS3Request {
  method: string;
  bucket: string;
  key: string;
}

const ALGORITHM = "AWS4-HMAC-SHA256";
/** `Credential=<key id>/<yyyymmdd>/<region>/s3/aws4_request, SignedHeaders=a;b;c, Signature=<64 hex>` */
const AUTHORIZATION = new RegExp(
  `^${ALGORITHM} Credential=([^/\\s,]+)/(\\d{8})/([a-z0-9-]+)/s3/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$`,
);

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
/** RFC 3986 encoding, as SigV4 canonicalizes query strings. */
const uriEncode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A local S3 on 127.0.0.1 speaking the REST protocol for what the service uses: PutObject, GetObject, HeadObject
 * and DeleteObject, path-style (`/<bucket>/<key>`), objects kept in memory. Every request must be signed with AWS
 * Signature V4 by the configured key: the Authorization header's shape, the signature itself (recomputed from the
 * canonical request) and the payload hash are checked, with S3's error codes and XML bodies when they fail.
 */
export class FakeS3Server {
  readonly requests: FakeS3Request[] = [];
  private readonly objects = new Map<string, FakeS3Object>();
  private server: Server | undefined;
  private stall: { afterBytes: number; released: Promise<void> } | undefined;
  url = "";

  constructor(
    readonly credentials: { accessKeyId: string; secretAccessKey: string },
    readonly region: string,
    private readonly buckets: readonly string[],
  ) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      void this.handle(req, res).catch((error: unknown) => {
        res.destroy(error as Error);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  clear(): void {
    this.objects.clear();
    this.requests.length = 0;
    this.stall = undefined;
  }

  object(bucket: string, key: string): FakeS3Object | undefined {
    return this.objects.get(`${bucket}/${key}`);
  }

  /** The keys of a bucket, sorted. */
  keys(bucket: string): string[] {
    return [...this.objects.keys()]
      .filter((id) => id.startsWith(`${bucket}/`))
      .map((id) => id.slice(bucket.length + 1))
      .sort();
  }

  /** Stores an object directly, as another writer of the bucket would. */
  putObject(bucket: string, key: string, body: Buffer, contentType: string): void {
    this.objects.set(`${bucket}/${key}`, {
      body,
      contentType,
      cacheControl: undefined,
      etag: `"${createHash("md5").update(body).digest("hex")}"`,
      lastModified: new Date(),
    });
  }

  /** Every GetObject from now on sends `afterBytes` bytes of its body, then waits for the returned function's call. */
  stallBodiesAfter(afterBytes: number): () => void {
    let release!: () => void;
    this.stall = { afterBytes, released: new Promise<void>((resolve) => (release = resolve)) };
    return release;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const [rawPath, rawQuery = ""] = (req.url ?? "/").split("?", 2);
    const [bucket = "", ...keyParts] = rawPath.slice(1).split("/").map(decodeURIComponent);
    const key = keyParts.join("/");
    const refusal = this.authenticate(req, rawPath, rawQuery, body);
    if (refusal) return sendError(req, res, refusal.status, refusal.code, refusal.message);
    if (!this.buckets.includes(bucket)) return sendError(req, res, 404, "NoSuchBucket", "The specified bucket does not exist");
    const unsupported = [...new URLSearchParams(rawQuery).keys()].some((name) => name !== "x-id");
    if (!key || unsupported) return sendError(req, res, 501, "NotImplemented", "The fake S3 serves object GET, HEAD, PUT and DELETE only");
    this.requests.push({ method: req.method!, bucket, key });
    const id = `${bucket}/${key}`;

    switch (req.method) {
      case "PUT": {
        if (String(req.headers["content-encoding"] ?? "").includes("aws-chunked")) {
          return sendError(req, res, 501, "NotImplemented", "aws-chunked uploads are not supported by the fake");
        }
        const etag = `"${createHash("md5").update(body).digest("hex")}"`;
        this.objects.set(id, {
          body,
          contentType: req.headers["content-type"],
          cacheControl: req.headers["cache-control"],
          etag,
          lastModified: new Date(),
        });
        res.writeHead(200, { ETag: etag, "Content-Length": 0 }).end();
        return;
      }
      case "GET":
      case "HEAD": {
        const object = this.objects.get(id);
        if (!object) return sendError(req, res, 404, "NoSuchKey", "The specified key does not exist.");
        res.writeHead(200, {
          "Content-Type": object.contentType ?? "binary/octet-stream",
          "Content-Length": object.body.length,
          ETag: object.etag,
          "Last-Modified": object.lastModified.toUTCString(),
          ...(object.cacheControl ? { "Cache-Control": object.cacheControl } : {}),
        });
        if (req.method === "HEAD") return void res.end();
        const stall = this.stall;
        if (stall && object.body.length > stall.afterBytes) {
          res.write(object.body.subarray(0, stall.afterBytes));
          await stall.released;
          res.end(object.body.subarray(stall.afterBytes));
        } else {
          res.end(object.body);
        }
        return;
      }
      case "DELETE":
        this.objects.delete(id);
        res.writeHead(204).end();
        return;
      default:
        return sendError(req, res, 405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
    }
  }

  /** SigV4 as S3 checks it: the header's shape, the key id, the payload hash, then the signature over the canonical request. */
  private authenticate(req: IncomingMessage, rawPath: string, rawQuery: string, body: Buffer): { status: number; code: string; message: string } | null {
    const authorization = req.headers.authorization;
    if (!authorization) return { status: 403, code: "AccessDenied", message: "Access Denied" };
    const match = AUTHORIZATION.exec(authorization);
    const amzDate = req.headers["x-amz-date"];
    const payloadHash = req.headers["x-amz-content-sha256"];
    if (!match || typeof amzDate !== "string" || !/^\d{8}T\d{6}Z$/.test(amzDate) || typeof payloadHash !== "string") {
      return { status: 400, code: "AuthorizationHeaderMalformed", message: "The authorization header is malformed" };
    }
    const [, keyId, date, region, signedHeaderList, signature] = match;
    if (keyId !== this.credentials.accessKeyId) {
      return { status: 403, code: "InvalidAccessKeyId", message: "The AWS Access Key Id you provided does not exist in our records." };
    }
    if (region !== this.region || !amzDate.startsWith(date)) {
      return { status: 400, code: "AuthorizationHeaderMalformed", message: "The authorization header is malformed; the region or date is wrong" };
    }
    if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== sha256(body)) {
      return { status: 400, code: "XAmzContentSHA256Mismatch", message: "The provided 'x-amz-content-sha256' header does not match what was computed." };
    }
    const signedHeaders = signedHeaderList.split(";");
    if (!signedHeaders.includes("host") || !signedHeaders.includes("x-amz-date")) {
      return { status: 400, code: "AuthorizationHeaderMalformed", message: "host and x-amz-date must be signed" };
    }
    const canonicalHeaders = signedHeaders.map((name) => `${name}:${headerValue(req, name)}\n`).join("");
    const canonicalRequest = [req.method, rawPath, canonicalQuery(rawQuery), canonicalHeaders, signedHeaderList, payloadHash].join("\n");
    const scope = `${date}/${region}/s3/aws4_request`;
    const stringToSign = [ALGORITHM, amzDate, scope, sha256(canonicalRequest)].join("\n");
    let signingKey = hmac(`AWS4${this.credentials.secretAccessKey}`, date);
    for (const part of [region, "s3", "aws4_request"]) signingKey = hmac(signingKey, part);
    if (createHmac("sha256", signingKey).update(stringToSign).digest("hex") !== signature) {
      return { status: 403, code: "SignatureDoesNotMatch", message: "The request signature we calculated does not match the signature you provided." };
    }
    return null;
  }
}

/**
 * A fake S3 for the calling test file, with the environment that points the service at it (`STORAGE_URL`, the
 * endpoint, region and keys, then `extra`), and `variant(changes)` for another instance's environment. Call it
 * before `useTestApp(env)`: every environment is filled in when the fake starts, before the apps do.
 */
export function useFakeS3(extra: Record<string, string> = {}) {
  const credentials = { accessKeyId: "FAKEKEYID0123456789", secretAccessKey: `fake-secret-${randomBytes(12).toString("hex")}` };
  const s3 = new FakeS3Server(credentials, "sa-east-1", ["images"]);
  const environments: Array<{ env: Record<string, string>; changes: Record<string, string> }> = [];
  const variant = (changes: Record<string, string>) => {
    const env: Record<string, string> = {};
    environments.push({ env, changes });
    return env;
  };
  const env = variant(extra);
  beforeAll(async () => {
    const endpoint = await s3.start();
    for (const { env, changes } of environments) {
      Object.assign(env, {
        STORAGE_URL: "s3://images/fitness/uploads",
        S3_ENDPOINT: endpoint,
        S3_REGION: s3.region,
        AWS_ACCESS_KEY_ID: credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
        ...changes,
      });
    }
  });
  beforeEach(() => s3.clear());
  afterAll(() => s3.stop());
  return { s3, env, variant };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** A signed header's canonical value: trimmed, inner runs of spaces made one. */
function headerValue(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return (Array.isArray(value) ? value.join(",") : (value ?? "")).trim().replace(/\s+/g, " ");
}

/** The query's parameters, each RFC 3986-encoded, sorted by name then value. */
function canonicalQuery(rawQuery: string): string {
  return rawQuery
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const [name, value = ""] = pair.split("=", 2).map((part) => uriEncode(decodeURIComponent(part)));
      return [name, value];
    })
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

/** S3's error answer: the XML body (none for HEAD, as S3 does). */
function sendError(req: IncomingMessage, res: ServerResponse, status: number, code: string, message: string): void {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${randomBytes(8).toString("hex")}</RequestId></Error>`;
  res.writeHead(status, { "Content-Type": "application/xml", "Content-Length": req.method === "HEAD" ? 0 : Buffer.byteLength(xml) });
  res.end(req.method === "HEAD" ? undefined : xml);
}
