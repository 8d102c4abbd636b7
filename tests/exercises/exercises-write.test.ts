import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";
import { createExercise, createTraining, exerciseForm, type FilePart } from "../factories/content.js";
import {
  ACCESS_DENIED,
  EXERCISE_KEYS,
  FIVE_MB,
  GIF,
  IN_USE,
  INVALID_IMAGE,
  ISO,
  JPEG,
  NOT_FOUND,
  PNG,
  PUBLIC_TRAINERS_ONLY,
  TOO_LARGE,
  UNAUTHORIZED,
  emptyUploadsBeforeEach,
  exerciseRow,
  exerciseRows,
  fileOf,
  gifPart,
  jpegPart,
  pngOfSize,
  pngPart,
  storedFiles,
} from "./support.js";

const t = useTestApp({ ADMIN_EMAILS: "boss@example.com" });
emptyUploadsBeforeEach(t);

const FULL = {
  name: "Supino reto",
  description: "Deite no banco e empurre a barra até estender os braços",
  category: "PEITO",
  isPublic: true,
  difficulty: "INTERMEDIARIO",
  equipment: "BARRA",
  videoUrl: "https://videos.example.com/supino-reto",
  instructions: ["Deite no banco", "Desça a barra até o peito", "Empurre a barra para cima"],
  muscleGroups: ["TRICEPS", "OMBRO"],
};

const REPLACEMENT = {
  name: "Remada curvada",
  description: "Incline o tronco e puxe a barra até o abdômen",
  category: "COSTAS",
  isPublic: false,
  difficulty: "AVANCADO",
  equipment: "HALTERES",
  videoUrl: "http://videos.example.com/remada",
  instructions: ["Incline o tronco", "Puxe"],
  muscleGroups: ["BICEPS"],
};

const post = (user: MadeUser | null, raw: FormData | string, headers?: Record<string, string>) =>
  t.post("/api/exercises", { token: user?.token, raw, headers });
const put = (user: MadeUser | null, id: number | string, raw: FormData) => t.put(`/api/exercises/${id}`, { token: user?.token, raw });
const remove = (user: MadeUser | null, id: number | string) => t.delete(`/api/exercises/${id}`, { token: user?.token });

/** The `exercise` part as a Blob of type application/json (how browser clients append it). */
function jsonBlobForm(exercise: unknown, file?: FilePart): FormData {
  const form = new FormData();
  form.append("exercise", new Blob([JSON.stringify(exercise)], { type: "application/json" }));
  if (file) form.append("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.filename);
  return form;
}

async function served(url: string) {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
}

const makeAdmin = () => makeTrainer(t, { email: "boss@example.com" });

describe("POST /api/exercises", () => {
  it("creates the exercise from a text part and answers 201 with the full Exercise", async () => {
    const trainer = await makeTrainer(t);
    const res = await post(trainer, exerciseForm(FULL));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      ...FULL,
      imageUrl: null,
      createdBy: trainer.id,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(Object.keys(res.body).sort()).toEqual(EXERCISE_KEYS);

    const [row] = await exerciseRows(t);
    expect(row).toMatchObject({ id: res.body.id, ...FULL, imageUrl: null, createdBy: trainer.id });
    const read = await t.get(`/api/exercises/${res.body.id}`, { token: trainer.token });
    expect(read.body).toEqual(res.body);
  });

  it("answers 400 Caractere inválido to a lone surrogate in an instruction or the name (PostgreSQL cannot store it), storing nothing", async () => {
    const trainer = await makeTrainer(t);
    const res = await post(trainer, exerciseForm({ ...FULL, name: "Supino \uDC00", instructions: ["Deite", "x\uD800"] }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: "Validation failed",
      success: false,
      errors: [
        { field: "name", message: "Caractere inválido" },
        { field: "instructions[1]", message: "Caractere inválido" },
      ],
    });
    expect(await exerciseRows(t)).toHaveLength(0);
    expect(t.logLines.join("")).not.toContain("Failed query");
    // A pair of surrogates is one character (an emoji) and is kept.
    const emoji = await post(trainer, exerciseForm({ ...FULL, instructions: ["Força \uD83D\uDCAA"] }));
    expect(emoji.status).toBe(201);
    expect(emoji.body.instructions).toEqual(["Força 💪"]);
  });

  it("accepts the exercise part sent as a Blob of type application/json", async () => {
    const trainer = await makeTrainer(t);
    const res = await post(trainer, jsonBlobForm(FULL, pngPart()));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...FULL, createdBy: trainer.id, imageUrl: expect.stringMatching(/\.png$/) });
    expect(await exerciseRows(t)).toHaveLength(1);
  });

  it("fills the optional fields with their defaults: private, no difficulty, equipment, video, instructions or groups", async () => {
    const trainer = await makeTrainer(t);
    const res = await post(trainer, exerciseForm({ name: "  Prancha  ", description: " Segure a posição ", category: "ABDOMEN" }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Prancha",
      description: "Segure a posição",
      category: "ABDOMEN",
      isPublic: false,
      difficulty: null,
      equipment: null,
      videoUrl: null,
      instructions: [],
      muscleGroups: [],
      imageUrl: null,
    });
  });

  it("takes null in an optional field as not given", async () => {
    const trainer = await makeTrainer(t);
    const nulls = { isPublic: null, difficulty: null, equipment: null, videoUrl: null, instructions: null, muscleGroups: null };
    const res = await post(trainer, exerciseForm({ name: "Prancha", description: "Segure", category: "ABDOMEN", ...nulls }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ isPublic: false, difficulty: null, equipment: null, videoUrl: null, instructions: [], muscleGroups: [] });
  });

  it.each([
    ["a PNG", pngPart(), PNG, "png", "image/png"],
    ["a JPEG", jpegPart(), JPEG, "jpg", "image/jpeg"],
    ["a GIF", gifPart(), GIF, "gif", "image/gif"],
  ])("stores %s under a random name and serves it at the absolute imageUrl", async (_label, file, bytes, ext, type) => {
    const trainer = await makeTrainer(t);
    const res = await post(trainer, exerciseForm(FULL, file));
    expect(res.status).toBe(201);
    expect(res.body.imageUrl).toMatch(new RegExp(`^${t.baseUrl}/uploads/[0-9a-f]{32}\\.${ext}$`));
    expect(readFileSync(fileOf(t, res.body.imageUrl)).equals(bytes)).toBe(true);
    expect((await exerciseRow(t, res.body.id))?.imageUrl).toBe(res.body.imageUrl);
    const image = await served(res.body.imageUrl);
    expect(image.status).toBe(200);
    expect(image.type).toBe(type);
    expect(image.bytes.equals(bytes)).toBe(true);
  });

  it("judges the image by its bytes: a PNG named photo.gif and declared image/gif is stored as .png", async () => {
    const trainer = await makeTrainer(t);
    const res = await post(trainer, exerciseForm(FULL, pngPart("photo.gif", "image/gif")));
    expect(res.status).toBe(201);
    expect(res.body.imageUrl).toMatch(/\/uploads\/[0-9a-f]{32}\.png$/);
    const image = await served(res.body.imageUrl);
    expect(image.status).toBe(200);
    expect(image.type).toBe("image/png");
    expect(image.bytes.equals(PNG)).toBe(true);
  });

  it.each([
    ["a text file named .jpg and declared image/jpeg", { bytes: Buffer.from("isto não é uma imagem\n"), filename: "foto.jpg", type: "image/jpeg" }],
    [
      "an SVG declared image/png",
      { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), filename: "a.png", type: "image/png" },
    ],
    ["an empty file", { bytes: Buffer.alloc(0), filename: "vazio.png", type: "image/png" }],
  ])("refuses %s with 400 and writes nothing", async (_label, file) => {
    const trainer = await makeTrainer(t);
    const res = await post(trainer, exerciseForm(FULL, file));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_IMAGE);
    expect(await exerciseRows(t)).toEqual([]);
    expect(storedFiles(t)).toEqual([]);
  });

  it("refuses an image over 5 MB with 400, writing neither a row nor a file", async () => {
    const trainer = await makeTrainer(t);
    const res = await post(trainer, exerciseForm(FULL, pngOfSize(FIVE_MB + 1)));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(TOO_LARGE);
    expect(await exerciseRows(t)).toEqual([]);
    expect(storedFiles(t)).toEqual([]);
  });

  it("accepts an image of exactly 5 MB", async () => {
    const trainer = await makeTrainer(t);
    const file = pngOfSize(FIVE_MB);
    const res = await post(trainer, exerciseForm(FULL, file));
    expect(res.status).toBe(201);
    expect(readFileSync(fileOf(t, res.body.imageUrl)).equals(file.bytes)).toBe(true);
  });

  it("accepts text at its limits: name of 120, description of 2000, videoUrl of 2048, 50 instructions of 500", async () => {
    const trainer = await makeTrainer(t);
    const atLimits = {
      ...FULL,
      name: "n".repeat(120),
      description: "d".repeat(2000),
      videoUrl: "https://v.example.com/".padEnd(2048, "a"),
      instructions: Array.from({ length: 50 }, () => "i".repeat(500)),
      muscleGroups: ["PEITO", "COSTAS", "OMBRO", "BICEPS", "TRICEPS", "PERNAS", "ABDOMEN", "GLUTEOS", "CARDIO", "OUTRO"],
    };
    const res = await post(trainer, exerciseForm(atLimits));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(atLimits);
  });

  it("lets a student create a private exercise", async () => {
    const student = await makeStudent(t);
    const res = await post(student, exerciseForm({ ...FULL, isPublic: false }, pngPart()));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...FULL, isPublic: false, createdBy: student.id });
    expect(await exerciseRows(t)).toHaveLength(1);
  });

  it("refuses a public exercise from a student with 403 and writes nothing", async () => {
    const student = await makeStudent(t);
    const res = await post(student, exerciseForm(FULL, pngPart()));
    expect(res.status).toBe(403);
    expect(res.body).toEqual(PUBLIC_TRAINERS_ONLY);
    expect(await exerciseRows(t)).toEqual([]);
    expect(storedFiles(t)).toEqual([]);
  });

  it("lets an administrator who is a student create a public exercise", async () => {
    const admin = await makeStudent(t, { email: "boss@example.com" });
    const res = await post(admin, exerciseForm(FULL));
    expect(res.status).toBe(201);
    expect(res.body.isPublic).toBe(true);
  });

  describe("validation of the exercise part", () => {
    const cases: Array<[string, FormData, string[]]> = [
      [
        "a missing exercise part",
        (() => {
          const form = new FormData();
          form.append("file", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "a.png");
          return form;
        })(),
        ["exercise"],
      ],
      ["a part that is not JSON", exerciseForm("{name: 'Supino'", pngPart()), ["exercise"]],
      ["a JSON array", exerciseForm("[]", pngPart()), ["exercise"]],
      ["a JSON string", exerciseForm('"Supino"', pngPart()), ["exercise"]],
      ["JSON null", exerciseForm("null", pngPart()), ["exercise"]],
      ["a blank name", exerciseForm({ ...FULL, name: "   " }, pngPart()), ["name"]],
      ["a name of 121 characters", exerciseForm({ ...FULL, name: "a".repeat(121) }, pngPart()), ["name"]],
      ["no description", exerciseForm({ name: "Supino", category: "PEITO" }, pngPart()), ["description"]],
      ["an unknown category", exerciseForm({ ...FULL, category: "PERNA" }, pngPart()), ["category"]],
      ["a description of 2001 characters", exerciseForm({ ...FULL, description: "d".repeat(2001) }, pngPart()), ["description"]],
      ["an ftp videoUrl", exerciseForm({ ...FULL, videoUrl: "ftp://x" }, pngPart()), ["videoUrl"]],
      ["a javascript: videoUrl", exerciseForm({ ...FULL, videoUrl: "javascript:alert(1)" }, pngPart()), ["videoUrl"]],
      ["a videoUrl of 2049 characters", exerciseForm({ ...FULL, videoUrl: "https://v.example.com/".padEnd(2049, "a") }, pngPart()), ["videoUrl"]],
      ["51 instructions", exerciseForm({ ...FULL, instructions: Array.from({ length: 51 }, (_, i) => `Passo ${i + 1}`) }, pngPart()), ["instructions"]],
      ["an instruction of 501 characters", exerciseForm({ ...FULL, instructions: ["ok", "i".repeat(501)] }, pngPart()), ["instructions[1]"]],
      ["repeated muscleGroups", exerciseForm({ ...FULL, muscleGroups: ["PEITO", "PEITO"] }, pngPart()), ["muscleGroups"]],
      ["a muscle group that is not a category", exerciseForm({ ...FULL, muscleGroups: ["OMBRO", "PESCOCO"] }, pngPart()), ["muscleGroups[1]"]],
      ["an unknown difficulty and equipment", exerciseForm({ ...FULL, difficulty: "FACIL", equipment: "KETTLEBELL" }, pngPart()), ["difficulty", "equipment"]],
      ["isPublic as a string", exerciseForm({ ...FULL, isPublic: "true" }, pngPart()), ["isPublic"]],
    ];

    it.each(cases)("answers 400 Validation failed for %s, naming the field, and writes nothing", async (_label, form, fields) => {
      const trainer = await makeTrainer(t);
      const res = await t.withInvalidRequests(() => post(trainer, form));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: "Validation failed",
        success: false,
        errors: fields.map((field) => ({ field, message: expect.any(String) })),
      });
      expect(await exerciseRows(t)).toEqual([]);
      expect(storedFiles(t)).toEqual([]);
    });

    it("reports every problem of the part together", async () => {
      const trainer = await makeTrainer(t);
      const res = await t.withInvalidRequests(() =>
        post(trainer, exerciseForm({ name: " ", description: "d".repeat(2001), category: "X", videoUrl: "ftp://x", muscleGroups: ["PEITO", "PEITO"] })),
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("Validation failed");
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["category", "description", "muscleGroups", "name", "videoUrl"]);
    });

    it("answers a validation error before the 403 of a student's public exercise", async () => {
      const student = await makeStudent(t);
      const res = await t.withInvalidRequests(() => post(student, exerciseForm({ ...FULL, name: "" })));
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ field: "name", message: expect.any(String) }]);
    });
  });

  it.each([
    ["a JSON body", JSON.stringify(FULL), "application/json"],
    ["a URL-encoded body", "exercise=abc", "application/x-www-form-urlencoded"],
  ])("answers %s with 400 in the error shape and writes nothing", async (_label, body, contentType) => {
    const trainer = await makeTrainer(t);
    const res = await t.withInvalidRequests(() => post(trainer, body, { "content-type": contentType }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: expect.any(String), success: false });
    expect(await exerciseRows(t)).toEqual([]);
  });

  it("answers 401 without a token and writes nothing", async () => {
    const res = await post(null, exerciseForm(FULL, pngPart()));
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    expect(await exerciseRows(t)).toEqual([]);
    expect(storedFiles(t)).toEqual([]);
  });
});

describe("PUT /api/exercises/{id}", () => {
  it("lets the creator replace every field and answers 200 with the Exercise", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL);
    t.clock.advance(60_000);
    const res = await put(trainer, created.id, exerciseForm(REPLACEMENT));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...REPLACEMENT,
      id: created.id,
      imageUrl: null,
      createdBy: trainer.id,
      createdAt: created.createdAt,
      updatedAt: new Date(Date.parse(created.updatedAt) + 60_000).toISOString(),
    });
    expect((await t.get(`/api/exercises/${created.id}`, { token: trainer.token })).body).toEqual(res.body);
    expect(await exerciseRow(t, created.id)).toMatchObject(REPLACEMENT);
  });

  it("clears the optional fields a replacement leaves out", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL);
    const res = await put(trainer, created.id, exerciseForm({ name: "Supino", description: "Só o básico", category: "PEITO" }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isPublic: false, difficulty: null, equipment: null, videoUrl: null, instructions: [], muscleGroups: [] });
  });

  it("replaces the image: imageUrl gets ?v=2 then ?v=3, the old file is removed and the new one served", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL, pngPart());
    const firstFile = fileOf(t, created.imageUrl);
    expect(existsSync(firstFile)).toBe(true);

    const second = await put(trainer, created.id, exerciseForm(FULL, jpegPart()));
    expect(second.status).toBe(200);
    expect(second.body.imageUrl).toMatch(new RegExp(`^${t.baseUrl}/uploads/[0-9a-f]{32}\\.jpg\\?v=2$`));
    expect(existsSync(firstFile)).toBe(false);
    expect((await fetch(created.imageUrl)).status).toBe(404);
    const image = await served(second.body.imageUrl);
    expect(image.status).toBe(200);
    expect(image.type).toBe("image/jpeg");
    expect(image.bytes.equals(JPEG)).toBe(true);

    const third = await put(trainer, created.id, jsonBlobForm(FULL, gifPart()));
    expect(third.status).toBe(200);
    expect(third.body.imageUrl).toMatch(/\.gif\?v=3$/);
    expect(existsSync(fileOf(t, second.body.imageUrl))).toBe(false);
    expect(storedFiles(t)).toEqual([fileOf(t, third.body.imageUrl).split("/").pop()]);
    expect((await served(third.body.imageUrl)).bytes.equals(GIF)).toBe(true);
    expect((await exerciseRow(t, created.id))?.imageUrl).toBe(third.body.imageUrl);
  });

  it("keeps versions distinct and only the last image on disk when replacements race", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL, pngPart());
    const results = await Promise.all([jpegPart(), gifPart(), pngPart()].map((file) => put(trainer, created.id, exerciseForm(FULL, file))));
    expect(results.map((res) => res.status)).toEqual([200, 200, 200]);
    const versions = results.map((res) => Number(/\?v=(\d+)$/.exec(res.body.imageUrl)?.[1])).sort();
    expect(versions).toEqual([2, 3, 4]);
    const row = await exerciseRow(t, created.id);
    expect(row?.imageUrl).toMatch(/\?v=4$/);
    expect(storedFiles(t)).toEqual([fileOf(t, row!.imageUrl!).split("/").pop()]);
  });

  it("gives an exercise created without an image a versioned imageUrl when one is added", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL);
    const res = await put(trainer, created.id, exerciseForm(FULL, pngPart()));
    expect(res.status).toBe(200);
    expect(res.body.imageUrl).toMatch(/\/uploads\/[0-9a-f]{32}\.png\?v=\d+$/);
    expect(readFileSync(fileOf(t, res.body.imageUrl)).equals(PNG)).toBe(true);
  });

  it("keeps the image when the replacement carries no file", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL, pngPart());
    const res = await put(trainer, created.id, exerciseForm(REPLACEMENT));
    expect(res.status).toBe(200);
    expect(res.body.imageUrl).toBe(created.imageUrl);
    expect(existsSync(fileOf(t, created.imageUrl))).toBe(true);
    expect((await served(created.imageUrl)).bytes.equals(PNG)).toBe(true);
  });

  it("keeps the exercise and its image when the new image is refused", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL, pngPart());
    const before = await exerciseRow(t, created.id);
    for (const [file, expected] of [
      [{ bytes: Buffer.from("texto"), filename: "b.png", type: "image/png" }, INVALID_IMAGE],
      [pngOfSize(FIVE_MB + 1), TOO_LARGE],
    ] as const) {
      const res = await put(trainer, created.id, exerciseForm(REPLACEMENT, file));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expected);
    }
    expect(await exerciseRow(t, created.id)).toEqual(before);
    expect(storedFiles(t)).toEqual([fileOf(t, created.imageUrl).split("/").pop()]);
  });

  it("answers 400 Validation failed for an invalid replacement and changes nothing", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL, pngPart());
    const before = await exerciseRow(t, created.id);
    const res = await t.withInvalidRequests(() => put(trainer, created.id, exerciseForm({ ...REPLACEMENT, name: "", category: "PERNA" }, jpegPart())));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: "Validation failed",
      success: false,
      errors: [
        { field: "name", message: expect.any(String) },
        { field: "category", message: expect.any(String) },
      ],
    });
    expect(await exerciseRow(t, created.id)).toEqual(before);
    expect(storedFiles(t)).toHaveLength(1);
  });

  it("refuses to make a student's exercise public with 403 and changes nothing", async () => {
    const student = await makeStudent(t);
    const created = await createExercise(t, student.token, { ...FULL, isPublic: false });
    const before = await exerciseRow(t, created.id);
    const res = await put(student, created.id, exerciseForm({ ...FULL, isPublic: true }, pngPart()));
    expect(res.status).toBe(403);
    expect(res.body).toEqual(PUBLIC_TRAINERS_ONLY);
    expect(await exerciseRow(t, created.id)).toEqual(before);
    expect(storedFiles(t)).toEqual([]);
  });

  it("answers 403 Acesso negado to another user and changes nothing", async () => {
    const owner = await makeTrainer(t);
    const created = await createExercise(t, owner.token, FULL, pngPart());
    const before = await exerciseRow(t, created.id);
    for (const other of [await makeTrainer(t), await makeStudent(t)]) {
      const res = await put(other, created.id, exerciseForm(REPLACEMENT, jpegPart()));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(ACCESS_DENIED);
    }
    expect(await exerciseRow(t, created.id)).toEqual(before);
    expect(storedFiles(t)).toEqual([fileOf(t, created.imageUrl).split("/").pop()]);
  });

  it("answers 404 Exercício não encontrado for an unknown id and writes nothing", async () => {
    const trainer = await makeTrainer(t);
    const res = await put(trainer, 999_999, exerciseForm(REPLACEMENT, pngPart()));
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
    expect(storedFiles(t)).toEqual([]);
  });

  it("answers 400 Parâmetro inválido: id for a non-numeric id", async () => {
    const trainer = await makeTrainer(t);
    const res = await t.withInvalidRequests(() => put(trainer, "abc", exerciseForm(REPLACEMENT)));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Parâmetro inválido: id", success: false });
  });

  it("lets an administrator update another user's exercise, keeping its creator", async () => {
    const owner = await makeStudent(t);
    const admin = await makeAdmin();
    const created = await createExercise(t, owner.token, { ...FULL, isPublic: false }, pngPart());
    const res = await put(admin, created.id, exerciseForm(REPLACEMENT, gifPart()));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...REPLACEMENT, id: created.id, createdBy: owner.id, imageUrl: expect.stringMatching(/\.gif\?v=2$/) });
    expect(existsSync(fileOf(t, created.imageUrl))).toBe(false);
  });

  it("answers 401 without a token and changes nothing", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL);
    const before = await exerciseRow(t, created.id);
    const res = await put(null, created.id, exerciseForm(REPLACEMENT, pngPart()));
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    expect(await exerciseRow(t, created.id)).toEqual(before);
    expect(storedFiles(t)).toEqual([]);
  });
});

describe("DELETE /api/exercises/{id}", () => {
  it("lets the creator delete it: 204, the row and the image file are gone", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL, pngPart());
    const res = await remove(trainer, created.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await exerciseRow(t, created.id)).toBeNull();
    expect(storedFiles(t)).toEqual([]);
    expect((await fetch(created.imageUrl)).status).toBe(404);
    expect((await t.get(`/api/exercises/${created.id}`, { token: trainer.token })).status).toBe(404);
  });

  it("removes the file of a replaced (versioned) image too", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL, pngPart());
    const updated = await put(trainer, created.id, exerciseForm(FULL, jpegPart()));
    expect(updated.body.imageUrl).toMatch(/\?v=2$/);
    expect((await remove(trainer, created.id)).status).toBe(204);
    expect(storedFiles(t)).toEqual([]);
  });

  it("leaves no image on disk when a deletion races an image replacement", async () => {
    const trainer = await makeTrainer(t);
    for (let round = 0; round < 5; round += 1) {
      const created = await createExercise(t, trainer.token, FULL, pngPart());
      const [replaced, deleted] = await Promise.all([put(trainer, created.id, exerciseForm(FULL, jpegPart())), remove(trainer, created.id)]);
      expect([200, 404]).toContain(replaced.status);
      expect(deleted.status).toBe(204);
      expect(await exerciseRow(t, created.id)).toBeNull();
      expect(storedFiles(t)).toEqual([]);
    }
  });

  it("answers 409 while a training uses the exercise and deletes nothing", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL, pngPart());
    await createTraining(t, trainer.token, [created.id]);
    const before = await exerciseRow(t, created.id);
    const res = await remove(trainer, created.id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual(IN_USE);
    expect(await exerciseRow(t, created.id)).toEqual(before);
    expect(existsSync(fileOf(t, created.imageUrl))).toBe(true);
  });

  it("answers 403 Acesso negado to another user and deletes nothing", async () => {
    const owner = await makeTrainer(t);
    const created = await createExercise(t, owner.token, FULL, pngPart());
    for (const other of [await makeTrainer(t), await makeStudent(t)]) {
      const res = await remove(other, created.id);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(ACCESS_DENIED);
    }
    expect(await exerciseRow(t, created.id)).not.toBeNull();
    expect(existsSync(fileOf(t, created.imageUrl))).toBe(true);
  });

  it("lets an administrator delete another user's exercise", async () => {
    const owner = await makeTrainer(t);
    const admin = await makeAdmin();
    const created = await createExercise(t, owner.token, FULL);
    expect((await remove(admin, created.id)).status).toBe(204);
    expect(await exerciseRow(t, created.id)).toBeNull();
  });

  it("answers 404 Exercício não encontrado for an unknown id", async () => {
    const trainer = await makeTrainer(t);
    const res = await remove(trainer, 999_999);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it("answers 400 Parâmetro inválido: id for a non-numeric id", async () => {
    const trainer = await makeTrainer(t);
    const res = await t.delete("/api/exercises/abc", { invalidRequest: true, token: trainer.token });
    expect(res).toMatchObject({ status: 400, body: { message: "Parâmetro inválido: id", success: false } });
  });

  it("answers 401 without a token and deletes nothing", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL);
    const res = await remove(null, created.id);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
    expect(await exerciseRow(t, created.id)).not.toBeNull();
  });
});
