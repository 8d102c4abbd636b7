import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";
import { AppError } from "../errors.js";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const INVALID_IMAGE = "Arquivo inválido. Apenas imagens JPG, PNG ou GIF são permitidas";
export const IMAGE_TOO_LARGE = "Tamanho máximo de arquivo excedido (5MB)";

/** The image types accepted, by the extension their stored name carries. */
const CONTENT_TYPES = { jpg: "image/jpeg", png: "image/png", gif: "image/gif" } as const;
type ImageExtension = keyof typeof CONTENT_TYPES;
const EXTENSIONS = new Map(Object.entries(CONTENT_TYPES).map(([extension, type]) => [type as string, extension as ImageExtension]));

/** The names this service gives images: 128 random bits, then the extension of the type their bytes showed. */
const IMAGE_NAME = /^[0-9a-f]{32}\.(jpg|png|gif)$/;

/** Images never change under a name (a new image gets a new name): caches may keep them for a year. */
export const IMAGE_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** An uploaded file as the surfaces hand it over: the bytes, and whether the size limit cut it. */
export interface UploadedFile {
  bytes: Buffer;
  truncated: boolean;
}

/** An image accepted for storage: its new name and its content type. */
export interface AcceptedImage {
  name: string;
  contentType: string;
}

/**
 * Where uploaded images (exercise images, profile photos) live. Services only save and remove; which store holds
 * them (a local directory, an S3 bucket) is the composition root's choice.
 */
export interface ImageStorage {
  /** Stores an image judged by its bytes (never its name or declared type); returns its absolute URL. */
  saveImage(file: UploadedFile): Promise<string>;
  /** Removes an image this storage wrote, given its URL (a `?v=` suffix allowed); anything else is left alone. */
  remove(url: string | null | undefined): Promise<void>;
  /** Serves `GET`/`HEAD /uploads/<name>` (mounted at `/uploads`); passes on to the next handler when there is no such image. */
  readonly uploadsHandler: RequestHandler;
  /** Lets go of the store's connections. */
  close(): void;
}

/** Refuses what is not a JPEG, PNG or GIF of at most 5 MB (400); names what is. */
export async function acceptImage(file: UploadedFile): Promise<AcceptedImage> {
  if (file.truncated || file.bytes.length > MAX_IMAGE_BYTES) throw new AppError(400, IMAGE_TOO_LARGE);
  // Loaded at the first upload: most of the service's work never needs it.
  const { fileTypeFromBuffer } = await import("file-type");
  const type = await fileTypeFromBuffer(file.bytes);
  const extension = type ? EXTENSIONS.get(type.mime) : undefined;
  if (!extension) throw new AppError(400, INVALID_IMAGE);
  return { name: `${randomBytes(16).toString("hex")}.${extension}`, contentType: CONTENT_TYPES[extension] };
}

/** The content type an image name stands for, or null when the name is not one this service gives. */
export function contentTypeOfName(name: string): string | null {
  const match = IMAGE_NAME.exec(name);
  return match ? CONTENT_TYPES[match[1] as ImageExtension] : null;
}

/** The image name in `url` when it is one of ours under one of `prefixes` (each ending in `/`), else null. */
export function imageNameIn(url: string | null | undefined, prefixes: readonly string[]): string | null {
  const prefix = url ? prefixes.find((candidate) => url.startsWith(candidate)) : undefined;
  if (!url || prefix === undefined) return null;
  const name = url.slice(prefix.length).split("?")[0];
  return contentTypeOfName(name) ? name : null;
}
