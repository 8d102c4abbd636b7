import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { asc, eq } from "drizzle-orm";
import { beforeEach, expect } from "vitest";
import { exercises } from "../../src/tables/exercise.table.js";
import type { TestApp } from "../helpers/test-app.js";
import type { FilePart } from "../factories/content.js";

export { ISO } from "../helpers/shapes.js";

// Real 1×1 images (the same bytes as tests/users/profile-photo.test.ts).
export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
export const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
export const JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  "base64",
);
export const FIVE_MB = 5 * 1024 * 1024;

export const pngPart = (filename = "foto.png", type = "image/png"): FilePart => ({ bytes: PNG, filename, type });
export const jpegPart = (filename = "foto.jpg", type = "image/jpeg"): FilePart => ({ bytes: JPEG, filename, type });
export const gifPart = (filename = "foto.gif", type = "image/gif"): FilePart => ({ bytes: GIF, filename, type });
/** A PNG padded with trailing bytes to exactly `size` bytes (still a PNG by its signature and first chunk). */
export const pngOfSize = (size: number): FilePart => ({
  bytes: Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 0)]),
  filename: "big.png",
  type: "image/png",
});

export const INVALID_IMAGE = { message: "Arquivo inválido. Apenas imagens JPG, PNG ou GIF são permitidas", success: false };
export const TOO_LARGE = { message: "Tamanho máximo de arquivo excedido (5MB)", success: false };
export const ACCESS_DENIED = { message: "Acesso negado", success: false };
export const NOT_FOUND = { message: "Exercício não encontrado", success: false };
export const UNAUTHORIZED = { message: "Token inválido ou expirado", success: false };
export const PUBLIC_TRAINERS_ONLY = { message: "Apenas personal trainers podem criar conteúdo público", success: false };
export const IN_USE = { message: "Exercício está em uso em treinos", success: false };

/** Every key of the Exercise resource; list items leave out the last three. */
export const EXERCISE_KEYS = [
  "id",
  "name",
  "description",
  "category",
  "imageUrl",
  "createdBy",
  "createdAt",
  "updatedAt",
  "isPublic",
  "difficulty",
  "equipment",
  "videoUrl",
  "instructions",
  "muscleGroups",
].sort();
export const LIST_ITEM_KEYS = EXERCISE_KEYS.filter((key) => !["videoUrl", "instructions", "muscleGroups"].includes(key));

/** The upload directory lives as long as the app; each test of the calling file starts with it empty. */
export function emptyUploadsBeforeEach(t: TestApp): void {
  beforeEach(() => rmSync(t.uploadsDir, { recursive: true, force: true }));
}

export function storedFiles(t: TestApp): string[] {
  return existsSync(t.uploadsDir) ? readdirSync(t.uploadsDir).sort() : [];
}

/** The file on disk behind an upload URL (its `?v=` dropped). */
export function fileOf(t: TestApp, url: string): string {
  const prefix = `${t.baseUrl}/uploads/`;
  expect(url.startsWith(prefix)).toBe(true);
  return path.join(t.uploadsDir, url.slice(prefix.length).split("?")[0]);
}

export async function exerciseRows(t: TestApp) {
  return t.db.select().from(exercises).orderBy(asc(exercises.id));
}

export async function exerciseRow(t: TestApp, id: number) {
  const [row] = await t.db.select().from(exercises).where(eq(exercises.id, id));
  return row ?? null;
}

/** A GraphQL multipart request (graphql-multipart-request-spec): operations, map, then the file part `0`. */
export function graphqlUpload(t: TestApp, query: string, variables: Record<string, unknown>, file: FilePart, token?: string) {
  const form = new FormData();
  form.append("operations", JSON.stringify({ query, variables: { ...variables, file: null } }));
  form.append("map", JSON.stringify({ 0: ["variables.file"] }));
  form.append("0", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.filename);
  return t.post("/graphql", { raw: form, token });
}
