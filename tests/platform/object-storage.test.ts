import { existsSync } from "node:fs";
import { describe, expect, it, onTestFinished } from "vitest";
import { useFakeS3 } from "../helpers/fake-s3.js";
import { useSecondInstance, useTestApp, type TestApp } from "../helpers/test-app.js";
import { createExercise, exerciseBody, exerciseForm } from "../factories/content.js";
import { makeStudent, makeTrainer } from "../factories/users.js";
import { exerciseRows, GIF, gifPart, JPEG, jpegPart, PNG, pngPart } from "../exercises/support.js";

// Contract §16: with STORAGE_URL=s3://… images live in the bucket, and /uploads/<name> works on every instance.
const { s3, env, variant } = useFakeS3();
const t = useTestApp(env);
const other = useSecondInstance(t, env);
// The same deployment with a CDN in front of the bucket, and one whose secret key the store does not accept.
const cdn = useSecondInstance(t, variant({ S3_PUBLIC_URL: "https://cdn.fitness.test/" }));
const wrongKey = useSecondInstance(t, variant({ AWS_SECRET_ACCESS_KEY: "not-the-secret-the-store-knows" }));

const BUCKET = "images";
const PREFIX = "fitness/uploads/";
const IMAGE_NAME = /[0-9a-f]{32}\.(png|jpg|gif)/;
const NOT_FOUND = { message: "Recurso não encontrado", success: false };

const nameOf = (url: string) => IMAGE_NAME.exec(url)![0];
const storedKeys = () => s3.keys(BUCKET);

/** GET (or HEAD) /uploads/<name> on an instance: status, headers and the body's bytes. */
async function fetchUpload(app: TestApp, name: string, method = "GET") {
  const response = await fetch(`${app.baseUrl}/uploads/${name}`, { method });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("images in object storage (STORAGE_URL=s3://…)", () => {
  it.each([
    ["a PNG", pngPart(), PNG, "image/png"],
    ["a JPEG", jpegPart(), JPEG, "image/jpeg"],
    ["a GIF", gifPart(), GIF, "image/gif"],
  ])("stores %s uploaded through one instance in the bucket, and another instance serves it", async (_label, file, bytes, type) => {
    const trainer = await makeTrainer(t);
    const exercise = await createExercise(t, trainer.token, {}, file);
    expect(exercise.imageUrl).toMatch(new RegExp(`^${t.baseUrl}/uploads/[0-9a-f]{32}\\.(png|jpg|gif)$`));
    const name = nameOf(exercise.imageUrl);

    expect(storedKeys()).toEqual([PREFIX + name]);
    const object = s3.object(BUCKET, PREFIX + name)!;
    expect(object.body.equals(bytes)).toBe(true);
    expect(object.contentType).toBe(type);
    expect(object.cacheControl).toBe("public, max-age=31536000, immutable");
    expect(existsSync(t.uploadsDir)).toBe(false);

    const served = await fetchUpload(other, name);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(bytes)).toBe(true);
    expect(served.headers.get("content-type")).toBe(type);
    expect(served.headers.get("content-length")).toBe(String(bytes.length));
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("etag")).toBe(object.etag);
  });

  it("answers HEAD from the object's metadata, without fetching its body", async () => {
    const trainer = await makeTrainer(t);
    const name = nameOf((await createExercise(t, trainer.token, {}, pngPart())).imageUrl);
    const head = await fetchUpload(other, name, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("image/png");
    expect(head.headers.get("content-length")).toBe(String(PNG.length));
    expect(head.bytes.length).toBe(0);
    expect(s3.requests.map((request) => request.method)).toEqual(["PUT", "HEAD"]);
  });

  it("deletes the replaced image's object, then the exercise's last one with the exercise", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, {}, pngPart());
    const first = nameOf(created.imageUrl);

    const replaced = await t.put(`/api/exercises/${created.id}`, { token: trainer.token, raw: exerciseForm(exerciseBody(), jpegPart()) });
    expect(replaced.status).toBe(200);
    expect(replaced.body.imageUrl).toMatch(new RegExp(`^${t.baseUrl}/uploads/[0-9a-f]{32}\\.jpg\\?v=2$`));
    const second = nameOf(replaced.body.imageUrl);
    expect(storedKeys()).toEqual([PREFIX + second]);
    expect((await fetchUpload(other, second)).bytes.equals(JPEG)).toBe(true);
    const gone = await other.get(`/uploads/${first}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual(NOT_FOUND);

    expect((await t.delete(`/api/exercises/${created.id}`, { token: trainer.token })).status).toBe(204);
    expect(storedKeys()).toEqual([]);
    expect((await other.get(`/uploads/${second}`)).status).toBe(404);
  });

  it("keeps profile photos there too: the replaced one's object is deleted", async () => {
    const student = await makeStudent(t);
    const uploadPhoto = async (bytes: Buffer, type: string) => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(bytes)], { type }), "foto");
      const res = await t.post(`/api/users/${student.id}/update-profile-photo`, { raw: form, token: student.token });
      expect(res.status).toBe(200);
      return nameOf(res.body.profilePicture);
    };
    const first = await uploadPhoto(PNG, "image/png");
    expect(storedKeys()).toEqual([PREFIX + first]);
    const second = await uploadPhoto(GIF, "image/gif");
    expect(storedKeys()).toEqual([PREFIX + second]);
    const served = await fetchUpload(other, second);
    expect(served.headers.get("content-type")).toBe("image/gif");
    expect(served.bytes.equals(GIF)).toBe(true);
  });

  it("answers 404 for an image the bucket does not hold, and never asks the store for a name that is not an image's", async () => {
    const missing = await other.get("/uploads/0123456789abcdef0123456789abcdef.png");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(NOT_FOUND);
    expect((await fetchUpload(other, "0123456789abcdef0123456789abcdef.png", "HEAD")).status).toBe(404);

    s3.putObject(BUCKET, `${PREFIX}notes.txt`, Buffer.from("private"), "text/plain");
    for (const name of ["notes.txt", "..%2Fsecret.png", "0123456789ABCDEF0123456789ABCDEF.png", "0123456789abcdef0123456789abcdef.svg"]) {
      const res = await other.get(`/uploads/${name}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    expect(s3.requests.map((request) => `${request.method} ${request.key}`)).toEqual([
      `GET ${PREFIX}0123456789abcdef0123456789abcdef.png`,
      `HEAD ${PREFIX}0123456789abcdef0123456789abcdef.png`,
    ]);
  });

  it("streams an object to the client as the store sends it, never waiting for the whole object", async () => {
    // 2 MB of noise under an image's name; the store sends 512 KB, then holds the rest until the client has those.
    const name = "00112233445566778899aabbccddeeff.png";
    const bytes = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 - PNG.length, 7)]);
    s3.putObject(BUCKET, PREFIX + name, bytes, "image/png");
    const release = s3.stallBodiesAfter(512 * 1024);
    // Were the service to buffer the object, nothing would arrive and the test would time out: let the store go then.
    onTestFinished(release);

    const response = await fetch(`${other.baseUrl}/uploads/${name}`);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [];
    let received = 0;
    while (received < 512 * 1024) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the body ended early");
      chunks.push(value);
      received += value.length;
    }
    release();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  it("with S3_PUBLIC_URL, hands out the CDN's URL of the object, removes it by that URL, and /uploads/ still serves it", async () => {
    const trainer = await makeTrainer(cdn);
    const created = await createExercise(cdn, trainer.token, {}, pngPart());
    expect(created.imageUrl).toMatch(new RegExp(`^https://cdn\\.fitness\\.test/${PREFIX}[0-9a-f]{32}\\.png$`));
    const name = nameOf(created.imageUrl);
    expect(storedKeys()).toEqual([PREFIX + name]);
    expect((await fetchUpload(other, name)).bytes.equals(PNG)).toBe(true);

    const replaced = await cdn.put(`/api/exercises/${created.id}`, { token: trainer.token, raw: exerciseForm(exerciseBody(), gifPart()) });
    expect(replaced.body.imageUrl).toMatch(new RegExp(`^https://cdn\\.fitness\\.test/${PREFIX}[0-9a-f]{32}\\.gif\\?v=2$`));
    expect(storedKeys()).toEqual([PREFIX + nameOf(replaced.body.imageUrl)]);
  });

  it("answers 500 when the store refuses the credentials, keeps no exercise, and logs the failure without any credential", async () => {
    const trainer = await makeTrainer(wrongKey);
    const res = await wrongKey.post("/api/exercises", { token: trainer.token, raw: exerciseForm(exerciseBody(), pngPart()) });
    expect(res.status).toBe(500);
    expect(await exerciseRows(t)).toEqual([]);
    expect(storedKeys()).toEqual([]);

    const logs = wrongKey.logLines.join("");
    expect(logs).toContain("object store: PutObject fitness/uploads/");
    expect(logs).toContain("SignatureDoesNotMatch");
    for (const secret of [env.AWS_SECRET_ACCESS_KEY, env.AWS_ACCESS_KEY_ID, "not-the-secret-the-store-knows"]) {
      expect(logs).not.toContain(secret);
      expect(t.logLines.join("") + other.logLines.join("")).not.toContain(secret);
    }
  });
});
