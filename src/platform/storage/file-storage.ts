import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import express, { type RequestHandler } from "express";
import { acceptImage, imageNameIn, type ImageStorage, type UploadedFile } from "./image-storage.js";

/** Images under a local directory, served at `publicBaseUrl/uploads/<name>` with random, unguessable names. */
export class FileStorage implements ImageStorage {
  readonly uploadsHandler: RequestHandler;
  private readonly urlPrefix: string;

  constructor(
    readonly dir: string,
    publicBaseUrl: string,
  ) {
    this.urlPrefix = `${publicBaseUrl}/uploads/`;
    this.uploadsHandler = express.static(dir, {
      index: false,
      dotfiles: "deny",
      fallthrough: true,
      immutable: true,
      maxAge: "365d",
      setHeaders: (res) => res.setHeader("X-Content-Type-Options", "nosniff"),
    });
  }

  async saveImage(file: UploadedFile): Promise<string> {
    const { name } = await acceptImage(file);
    await mkdir(this.dir, { recursive: true });
    await writeFile(path.join(this.dir, name), file.bytes, { flag: "wx" });
    return this.urlPrefix + name;
  }

  async remove(url: string | null | undefined): Promise<void> {
    const name = imageNameIn(url, [this.urlPrefix]);
    if (name) await rm(path.join(this.dir, name), { force: true });
  }

  close(): void {
    // Files hold nothing open between calls.
  }
}
