import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { users } from "../../src/tables/user.table.js";
import { useTestApp } from "../helpers/test-app.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";

const t = useTestApp();
// The upload directory lives as long as the app; each test starts with it empty.
beforeEach(() => rmSync(t.uploadsDir, { recursive: true, force: true }));

// Real 1×1 images, small enough to write out by hand.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  "base64",
);
const FIVE_MB = 5 * 1024 * 1024;

const INVALID_IMAGE = { message: "Arquivo inválido. Apenas imagens JPG, PNG ou GIF são permitidas", success: false };
const TOO_LARGE = { message: "Tamanho máximo de arquivo excedido (5MB)", success: false };

function form(bytes: Buffer, filename: string, type: string, part = "file"): FormData {
  const data = new FormData();
  data.append(part, new Blob([new Uint8Array(bytes)], { type }), filename);
  return data;
}

/** A PNG padded with trailing bytes to exactly `size` bytes (still a PNG by its signature and first chunk). */
function pngOfSize(size: number): Buffer {
  return Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 0)]);
}

const upload = (user: MadeUser | null, userId: number, body: FormData | string, headers?: Record<string, string>) =>
  t.post(`/api/users/${userId}/update-profile-photo`, { raw: body, token: user?.token, headers });

function storedFiles(): string[] {
  return existsSync(t.uploadsDir) ? readdirSync(t.uploadsDir).sort() : [];
}

async function pictureInDb(userId: number) {
  const [row] = await t.db.select({ profilePicture: users.profilePicture }).from(users).where(eq(users.id, userId));
  return row.profilePicture;
}

function fileOf(url: string): string {
  const prefix = `${t.baseUrl}/uploads/`;
  expect(url.startsWith(prefix)).toBe(true);
  return path.join(t.uploadsDir, url.slice(prefix.length));
}

describe("POST /api/users/{userId}/update-profile-photo", () => {
  it.each([
    ["a PNG", PNG, "foto.png", "image/png", "png"],
    ["a JPEG", JPEG, "foto.jpg", "image/jpeg", "jpg"],
    ["a GIF", GIF, "foto.gif", "image/gif", "gif"],
  ])("stores %s under a random name and answers the user with its absolute URL", async (_label, bytes, filename, type, ext) => {
    const student = await makeStudent(t);
    const res = await upload(student, student.id, form(bytes, filename, type));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...student.user,
      profilePicture: expect.stringMatching(new RegExp(`^${t.baseUrl}/uploads/[0-9a-f]{32}\\.${ext}$`)),
      updatedAt: expect.any(String),
    });
    const url: string = res.body.profilePicture;
    expect(await pictureInDb(student.id)).toBe(url);
    expect(readFileSync(fileOf(url)).equals(bytes)).toBe(true);
    expect((await t.get("/api/users/profile", { token: student.token })).body.profilePicture).toBe(url);
  });

  it.each([
    ["PNG", PNG, "image/png"],
    ["JPEG", JPEG, "image/jpeg"],
    ["GIF", GIF, "image/gif"],
  ])("serves the stored %s publicly: the same bytes, its image type and nosniff", async (_label, bytes, type) => {
    const student = await makeStudent(t);
    const res = await upload(student, student.id, form(bytes, "photo", "application/octet-stream"));
    expect(res.status).toBe(200);
    const served = await fetch(res.body.profilePicture);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe(type);
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("gives each upload a different name", async () => {
    const student = await makeStudent(t);
    const first = await upload(student, student.id, form(PNG, "a.png", "image/png"));
    const second = await upload(student, student.id, form(PNG, "a.png", "image/png"));
    expect(first.body.profilePicture).not.toBe(second.body.profilePicture);
  });

  it("judges the type by the bytes: a PNG named x.gif and declared image/gif is stored as .png", async () => {
    const student = await makeStudent(t);
    const res = await upload(student, student.id, form(PNG, "x.gif", "image/gif"));
    expect(res.status).toBe(200);
    expect(res.body.profilePicture).toMatch(/\/uploads\/[0-9a-f]{32}\.png$/);
    const served = await fetch(res.body.profilePicture);
    expect(served.headers.get("content-type")).toBe("image/png");
  });

  it.each([
    ["a text file named .jpg and declared image/jpeg", Buffer.from("isto não é uma imagem\n"), "foto.jpg", "image/jpeg"],
    ["an SVG declared image/png", Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), "foto.png", "image/png"],
    ["an HTML page declared image/gif", Buffer.from("<!doctype html><html><body>hi</body></html>"), "foto.gif", "image/gif"],
    ["a PDF", Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n"), "doc.png", "image/png"],
    ["a bare PNG signature with no image behind it", Buffer.from("89504e470d0a1a0a", "hex"), "x.png", "image/png"],
    ["an empty file", Buffer.alloc(0), "vazio.png", "image/png"],
  ])("refuses %s with 400 and stores nothing", async (_label, bytes, filename, type) => {
    const student = await makeStudent(t);
    const res = await upload(student, student.id, form(bytes, filename, type));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_IMAGE);
    expect(storedFiles()).toEqual([]);
    expect(await pictureInDb(student.id)).toBeNull();
  });

  it("refuses a file over 5 MB with 400 and writes nothing", async () => {
    const student = await makeStudent(t);
    const before = storedFiles();
    const res = await upload(student, student.id, form(pngOfSize(FIVE_MB + 1), "big.png", "image/png"));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(TOO_LARGE);
    expect(storedFiles()).toEqual(before);
    expect(await pictureInDb(student.id)).toBeNull();
  });

  it("refuses a much larger file the same way", async () => {
    const student = await makeStudent(t);
    const res = await upload(student, student.id, form(pngOfSize(12 * 1024 * 1024), "huge.png", "image/png"));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(TOO_LARGE);
    expect(storedFiles()).toEqual([]);
  });

  it("accepts a file of exactly 5 MB", async () => {
    const student = await makeStudent(t);
    const bytes = pngOfSize(FIVE_MB);
    const res = await upload(student, student.id, form(bytes, "limit.png", "image/png"));
    expect(res.status).toBe(200);
    expect(readFileSync(fileOf(res.body.profilePicture)).equals(bytes)).toBe(true);
  });

  it("answers 400 Validation failed on field file when the file part is missing", async () => {
    const student = await makeStudent(t);
    const data = new FormData();
    data.append("description", "sem arquivo");
    const res = await t.withInvalidRequests(() => upload(student, student.id, data));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Validation failed", success: false, errors: [{ field: "file", message: expect.any(String) }] });
    expect(storedFiles()).toEqual([]);
  });

  it("answers 400 Validation failed when the image comes in a part not named file", async () => {
    const student = await makeStudent(t);
    const res = await t.withInvalidRequests(() => upload(student, student.id, form(PNG, "foto.png", "image/png", "image")));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Validation failed", success: false, errors: [{ field: "file", message: expect.any(String) }] });
    expect(storedFiles()).toEqual([]);
  });

  it.each([
    ["a JSON body", JSON.stringify({ file: PNG.toString("base64") }), "application/json"],
    ["a URL-encoded body", "file=abc", "application/x-www-form-urlencoded"],
    ["a raw image body", PNG.toString("latin1"), "image/png"],
  ])("answers 400 in the error shape to %s", async (_label, body, contentType) => {
    const student = await makeStudent(t);
    const res = await t.withInvalidRequests(() => upload(student, student.id, body, { "content-type": contentType }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: expect.any(String), success: false });
    expect(storedFiles()).toEqual([]);
    expect(await pictureInDb(student.id)).toBeNull();
  });

  it.each([
    ["no boundary", "multipart/form-data", '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc\r\n--x--\r\n'],
    [
      "a boundary the body never uses",
      "multipart/form-data; boundary=expected",
      '--other\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc\r\n--other--\r\n',
    ],
    [
      "a body cut off inside the file part",
      "multipart/form-data; boundary=cut",
      `--cut\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${PNG.subarray(0, 20).toString("latin1")}`,
    ],
    ["a body cut off inside the part headers", "multipart/form-data; boundary=cut", "--cut\r\nContent-Disposition: form-da"],
    ["an empty body", "multipart/form-data; boundary=empty", ""],
  ])("answers a malformed multipart body (%s) with 4xx in the error shape, never 500", async (_label, contentType, body) => {
    const student = await makeStudent(t);
    const res = await upload(student, student.id, body, { "content-type": contentType });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body).toEqual({ message: expect.any(String), success: false });
    expect(storedFiles()).toEqual([]);
    expect(await pictureInDb(student.id)).toBeNull();
    // The service is still up and answering.
    expect((await t.get("/api/users/profile", { token: student.token })).status).toBe(200);
  });

  it("replaces the photo and removes the old file from disk", async () => {
    const student = await makeStudent(t);
    const first = await upload(student, student.id, form(PNG, "a.png", "image/png"));
    const oldFile = fileOf(first.body.profilePicture);
    expect(existsSync(oldFile)).toBe(true);

    const second = await upload(student, student.id, form(JPEG, "b.jpg", "image/jpeg"));
    expect(second.status).toBe(200);
    expect(second.body.profilePicture).toMatch(/\.jpg$/);
    expect(existsSync(oldFile)).toBe(false);
    expect(storedFiles()).toEqual([path.basename(fileOf(second.body.profilePicture))]);
    expect((await fetch(first.body.profilePicture)).status).toBe(404);
  });

  it("keeps the current photo when a replacement is refused", async () => {
    const student = await makeStudent(t);
    const first = await upload(student, student.id, form(GIF, "a.gif", "image/gif"));
    const refused = await upload(student, student.id, form(Buffer.from("texto"), "b.png", "image/png"));
    expect(refused.status).toBe(400);
    expect(await pictureInDb(student.id)).toBe(first.body.profilePicture);
    expect(existsSync(fileOf(first.body.profilePicture))).toBe(true);
  });

  it("answers 403 Acesso negado for another user's id and writes nothing", async () => {
    const student = await makeStudent(t);
    const trainer = await makeTrainer(t);
    const res = await upload(trainer, student.id, form(PNG, "a.png", "image/png"));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "Acesso negado", success: false });
    expect(storedFiles()).toEqual([]);
    expect(await pictureInDb(student.id)).toBeNull();
    expect(await pictureInDb(trainer.id)).toBeNull();
  });

  it("lets an administrator replace another user's photo", async () => {
    const admin = await makeTrainer(t);
    const student = await makeStudent(t);
    await t.db.update(users).set({ isAdmin: true }).where(eq(users.id, admin.id));
    const res = await upload(admin, student.id, form(PNG, "a.png", "image/png"));
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(student.id);
    expect(await pictureInDb(student.id)).toBe(res.body.profilePicture);
    expect(await pictureInDb(admin.id)).toBeNull();
  });

  it("answers 404 Usuário não encontrado for an unknown user and writes nothing", async () => {
    const student = await makeStudent(t);
    const res = await upload(student, student.id + 1000, form(PNG, "a.png", "image/png"));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Usuário não encontrado", success: false });
    expect(storedFiles()).toEqual([]);
  });

  it("answers 400 Parâmetro inválido: id for a non-numeric user id (contract §2)", async () => {
    const student = await makeStudent(t);
    const res = await t.post("/api/users/abc/update-profile-photo", { invalidRequest: true, raw: form(PNG, "a.png", "image/png"), token: student.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Parâmetro inválido: id", success: false });
    expect(storedFiles()).toEqual([]);
  });

  it("answers 401 without a token and writes nothing", async () => {
    const student = await makeStudent(t);
    const res = await upload(null, student.id, form(PNG, "a.png", "image/png"));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
    expect(storedFiles()).toEqual([]);
    expect(await pictureInDb(student.id)).toBeNull();
  });
});

describe("GET /uploads/...", () => {
  it("answers 404 for a name that was never stored and refuses to walk out of the directory", async () => {
    const missing = await fetch(`${t.baseUrl}/uploads/${"0".repeat(32)}.png`);
    expect(missing.status).toBe(404);
    const traversal = await fetch(`${t.baseUrl}/uploads/..%2f..%2fetc%2fpasswd`);
    expect(traversal.status).toBeGreaterThanOrEqual(400);
    expect(traversal.status).toBeLessThan(500);
  });
});
