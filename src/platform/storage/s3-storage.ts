import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type * as S3Sdk from "@aws-sdk/client-s3";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { ObjectStorageConfig } from "../config.js";
import type { Logger } from "../logger.js";
import { acceptImage, contentTypeOfName, IMAGE_CACHE_CONTROL, imageNameIn, type ImageStorage, type UploadedFile } from "./image-storage.js";

/**
 * Images in an S3-compatible bucket (AWS S3, MinIO, R2…), so every instance of the service reads what any of them
 * stored. `/uploads/<name>` streams the object from the store; with a public URL (a CDN) the images' URLs point there.
 */
export class S3Storage implements ImageStorage {
  private readonly client: S3Sdk.S3Client;
  private readonly urlPrefixes: string[];

  /**
   * The storage on the configured bucket. The AWS SDK is loaded here, when STORAGE_URL names a store: an instance that
   * keeps its images in files never loads it (6 MiB of live heap after GC, measured on Node 24; more of RSS).
   */
  static async open(settings: ObjectStorageConfig, publicBaseUrl: string, logger: Logger): Promise<S3Storage> {
    return new S3Storage(await import("@aws-sdk/client-s3"), settings, publicBaseUrl, logger);
  }

  private constructor(
    private readonly sdk: typeof S3Sdk,
    private readonly settings: ObjectStorageConfig,
    private readonly publicBaseUrl: string,
    private readonly logger: Logger,
  ) {
    this.client = new sdk.S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      // Stores other than AWS are addressed by path (bucket names need no DNS of their own there).
      forcePathStyle: settings.endpoint !== undefined,
      credentials: settings.credentials,
      // The SDK's default checksums (CRC32 on every request) are not understood by every S3-compatible store.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
    });
    // URLs handed out before S3_PUBLIC_URL was set keep pointing at /uploads/: both are ours.
    this.urlPrefixes = [`${publicBaseUrl}/uploads/`, ...(settings.publicUrl ? [`${settings.publicUrl}/${this.keyOf("")}`] : [])];
  }

  async saveImage(file: UploadedFile): Promise<string> {
    const { name, contentType } = await acceptImage(file);
    const key = this.keyOf(name);
    await this.send("PutObject", key, () =>
      this.client.send(
        new this.sdk.PutObjectCommand({
          Bucket: this.settings.bucket,
          Key: key,
          Body: file.bytes,
          ContentType: contentType,
          CacheControl: IMAGE_CACHE_CONTROL,
        }),
      ),
    );
    return this.settings.publicUrl ? `${this.settings.publicUrl}/${key}` : `${this.publicBaseUrl}/uploads/${name}`;
  }

  /** A failure is logged, not thrown: the change that let the image go is already committed, the object only lingers. */
  async remove(url: string | null | undefined): Promise<void> {
    const name = imageNameIn(url, this.urlPrefixes);
    if (!name) return;
    const key = this.keyOf(name);
    try {
      await this.send("DeleteObject", key, () => this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key })));
    } catch (error) {
      this.logger.warn({ err: error }, "an image no longer used stays in the object store");
    }
  }

  readonly uploadsHandler: RequestHandler = (req, res, next) => {
    this.serve(req, res, next).catch(next);
  };

  close(): void {
    this.client.destroy();
  }

  private async serve(req: Request, res: Response, next: NextFunction): Promise<void> {
    const name = req.path.slice(1);
    // The type the name stands for, never what the object says: an object changed behind our back stays an image.
    const contentType = contentTypeOfName(name);
    if ((req.method !== "GET" && req.method !== "HEAD") || !contentType) return next();
    const key = this.keyOf(name);
    const input = { Bucket: this.settings.bucket, Key: key };
    const object =
      req.method === "HEAD"
        ? await this.find("HeadObject", key, () => this.client.send(new this.sdk.HeadObjectCommand(input)))
        : await this.find("GetObject", key, () => this.client.send(new this.sdk.GetObjectCommand(input)));
    if (!object) return next();
    res.status(200);
    res.setHeader("Content-Type", contentType);
    res.setHeader("Cache-Control", IMAGE_CACHE_CONTROL);
    res.setHeader("X-Content-Type-Options", "nosniff");
    if (object.ContentLength !== undefined) res.setHeader("Content-Length", object.ContentLength);
    if (object.ETag) res.setHeader("ETag", object.ETag);
    if (object.LastModified) res.setHeader("Last-Modified", object.LastModified.toUTCString());
    if (!("Body" in object)) {
      res.end();
      return;
    }
    // Chunk by chunk from the store to the client. A client gone, or a store cut off mid-object, makes the pipeline
    // destroy both sides (the client sees a short body, never a wrong one): nothing more to do.
    await pipeline(object.Body as Readable, res).catch(() => undefined);
  }

  /** The object, or null when the store has no such key. */
  private async find<T>(operation: string, key: string, call: () => Promise<T>): Promise<T | null> {
    try {
      return await call();
    } catch (error) {
      if (isMissingKey(error)) return null;
      throw storeFailure(operation, key, error);
    }
  }

  private async send<T>(operation: string, key: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw storeFailure(operation, key, error);
    }
  }

  private keyOf(name: string): string {
    return this.settings.prefix ? `${this.settings.prefix}/${name}` : name;
  }
}

/** GetObject's `NoSuchKey`, HeadObject's bodiless 404 (a missing bucket is the operator's mistake, not a missing image). */
function isMissingKey(error: unknown): boolean {
  const name = (error as Error | null)?.name;
  return name === "NoSuchKey" || name === "NotFound";
}

/**
 * The SDK's errors carry the request and the store's answer (headers with the access key's id, the store's echo of
 * what was signed): only the operation, the key, the error's code and the HTTP status go on, so nothing of the
 * credentials reaches a log.
 */
function storeFailure(operation: string, key: string, error: unknown): Error {
  const failure = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } } | null;
  const status = failure?.$metadata?.httpStatusCode;
  const reason = [failure?.code ?? failure?.name ?? "unknown error", status ? `HTTP ${status}` : null].filter(Boolean).join(", ");
  return new Error(`object store: ${operation} ${key} failed (${reason})`);
}
