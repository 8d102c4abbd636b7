import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileTypeFromBuffer } from "file-type";
import { AppError } from "../errors.js";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const INVALID_IMAGE = "Arquivo inválido. Apenas imagens JPG, PNG ou GIF são permitidas";
export const IMAGE_TOO_LARGE = "Tamanho máximo de arquivo excedido (5MB)";

const IMAGE_TYPES: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/gif": "gif" };

/** An uploaded file as the surfaces hand it over: the bytes, and whether the size limit cut it. */
export interface UploadedFile {
  bytes: Buffer;
  truncated: boolean;
}

/** Images under `dir`, served at `publicBaseUrl/uploads/<name>` with random, unguessable names. */
export class FileStorage {
  constructor(
    readonly dir: string,
    private readonly publicBaseUrl: string,
  ) {}

  /** Stores an image judged by its bytes (never its name or declared type); returns its absolute URL. */
  async saveImage(file: UploadedFile): Promise<string> {
    if (file.truncated || file.bytes.length > MAX_IMAGE_BYTES) throw new AppError(400, IMAGE_TOO_LARGE);
    const type = await fileTypeFromBuffer(file.bytes);
    const extension = type ? IMAGE_TYPES[type.mime] : undefined;
    if (!extension) throw new AppError(400, INVALID_IMAGE);
    const name = `${randomBytes(16).toString("hex")}.${extension}`;
    await mkdir(this.dir, { recursive: true });
    await writeFile(path.join(this.dir, name), file.bytes, { flag: "wx" });
    return `${this.publicBaseUrl}/uploads/${name}`;
  }

  /** Removes a file this storage wrote, given its URL; anything else is left alone. */
  async remove(url: string | null | undefined): Promise<void> {
    const name = this.nameOf(url);
    if (name) await rm(path.join(this.dir, name), { force: true });
  }

  private nameOf(url: string | null | undefined): string | null {
    const prefix = `${this.publicBaseUrl}/uploads/`;
    if (!url?.startsWith(prefix)) return null;
    const name = url.slice(prefix.length).split("?")[0];
    return /^[0-9a-f]{32}\.(jpg|png|gif)$/.test(name) ? name : null;
  }
}
