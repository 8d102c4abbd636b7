import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { exerciseRepository } from "../../src/modules/exercises/exercise.repository.js";
import { useTestApp, type GraphqlError } from "../helpers/test-app.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";
import { createExercise, createTraining, exerciseForm, linkTrainerAndStudent } from "../factories/content.js";
import {
  FIVE_MB,
  INVALID_IMAGE,
  JPEG,
  PNG,
  emptyUploadsBeforeEach,
  exerciseRow,
  exerciseRows,
  fileOf,
  graphqlUpload,
  jpegPart,
  pngOfSize,
  pngPart,
  storedFiles,
  TOO_LARGE,
} from "./support.js";

const t = useTestApp({ ADMIN_EMAILS: "boss@example.com" });
emptyUploadsBeforeEach(t);

const FIELDS = `
  fragment ExerciseFields on Exercise {
    id name description category imageUrl createdBy isPublic difficulty equipment videoUrl instructions muscleGroups createdAt updatedAt
  }`;
const EXERCISE = `query ($id: Int!) { exercise(id: $id) { ...ExerciseFields } } ${FIELDS}`;
const EXERCISE_WITH_CREATOR = `query ($id: Int!) { exercise(id: $id) { id creator { id name userType profilePicture } } }`;
const EXERCISES = `query ($filter: ExerciseFilter, $page: PageInput) {
  exercises(filter: $filter, page: $page) { content { ...ExerciseFields creator { id name } } totalElements totalPages number size }
} ${FIELDS}`;
const MY_EXERCISES = `query ($page: PageInput) { myExercises(page: $page) { content { id name } totalElements totalPages number size } }`;
const CATEGORIES = `query { exerciseCategories }`;
const CREATE = `mutation ($input: ExerciseInput!, $file: Upload) { createExercise(input: $input, file: $file) { ...ExerciseFields creator { id name } } } ${FIELDS}`;
const UPDATE = `mutation ($id: Int!, $input: ExerciseInput!, $file: Upload) { updateExercise(id: $id, input: $input, file: $file) { ...ExerciseFields } } ${FIELDS}`;
const DELETE = `mutation ($id: Int!) { deleteExercise(id: $id) }`;

const FULL = {
  name: "Desenvolvimento militar",
  description: "Empurre a barra acima da cabeça",
  category: "OMBRO",
  isPublic: true,
  difficulty: "AVANCADO",
  equipment: "BARRA",
  videoUrl: "https://videos.example.com/desenvolvimento",
  instructions: ["Segure a barra", "Empurre para cima"],
  muscleGroups: ["TRICEPS"],
};
const REPLACEMENT = {
  name: "Elevação lateral",
  description: "Eleve os halteres até a linha dos ombros",
  category: "OMBRO",
  equipment: "HALTERES",
  instructions: ["Eleve"],
};

function onlyError(body: { errors?: GraphqlError[] }): GraphqlError {
  expect(body.errors).toHaveLength(1);
  return body.errors![0];
}

const gql = (query: string, variables: Record<string, unknown> = {}, user?: MadeUser | null) => t.graphql(query, variables, user?.token);
const makeAdmin = () => makeTrainer(t, { email: "boss@example.com" });

describe("GraphQL exerciseCategories", () => {
  it("answers the ten categories in the REST order without a token", async () => {
    const body = await gql(CATEGORIES);
    expect(body.errors).toBeUndefined();
    expect(body.data.exerciseCategories).toEqual((await t.get("/api/exercises/categories")).body);
  });
});

describe("GraphQL exercise(id)", () => {
  it("answers a public exercise without a token with the same fields as REST", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL, pngPart());
    const body = await gql(EXERCISE, { id: created.id });
    expect(body.errors).toBeUndefined();
    expect(body.data.exercise).toEqual((await t.get(`/api/exercises/${created.id}`)).body);
  });

  it("gives the creator as a UserSummary (id, name, userType, picture)", async () => {
    const trainer = await makeTrainer(t, { name: "Carla Personal" });
    const created = await createExercise(t, trainer.token, { isPublic: true });
    const body = await gql(EXERCISE_WITH_CREATOR, { id: created.id });
    expect(body.data.exercise).toEqual({ id: created.id, creator: { id: trainer.id, name: "Carla Personal", userType: "PERSONAL", profilePicture: null } });
  });

  it("has no e-mail on the creator: asking for it is refused before running", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, { isPublic: true });
    const body = await gql(`query ($id: Int!) { exercise(id: $id) { creator { id email } } }`, { id: created.id });
    const error = onlyError(body);
    expect(error.extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    expect(JSON.stringify(body)).not.toContain(trainer.email);
  });

  it("shows a student's private exercise to the linked trainer", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    await linkTrainerAndStudent(t, trainer, student);
    const created = await createExercise(t, student.token);
    const body = await gql(EXERCISE, { id: created.id }, trainer);
    expect(body.errors).toBeUndefined();
    expect(body.data.exercise).toEqual(created);
  });

  it("shows a private exercise to an administrator", async () => {
    const owner = await makeStudent(t);
    const created = await createExercise(t, owner.token);
    const body = await gql(EXERCISE, { id: created.id }, await makeAdmin());
    expect(body.data.exercise.id).toBe(created.id);
  });

  it("answers UNAUTHENTICATED, FORBIDDEN and NOT_FOUND with the REST messages and statuses", async () => {
    const owner = await makeTrainer(t);
    const stranger = await makeStudent(t);
    const created = await createExercise(t, owner.token);
    const cases: Array<[number, MadeUser | null, string, number]> = [
      [created.id, null, "UNAUTHENTICATED", 401],
      [created.id, stranger, "FORBIDDEN", 403],
      [999_999, stranger, "NOT_FOUND", 404],
    ];
    for (const [id, user, code, status] of cases) {
      const rest = await t.get(`/api/exercises/${id}`, { token: user?.token });
      const body = await gql(EXERCISE, { id }, user);
      expect(body.data).toEqual({ exercise: null });
      const error = onlyError(body);
      expect(rest.status).toBe(status);
      expect(error.message).toBe(rest.body.message);
      expect(error.extensions).toEqual({ code, status });
    }
  });
});

describe("GraphQL exercises(filter, page) and myExercises", () => {
  async function library() {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    await linkTrainerAndStudent(t, trainer, student);
    await createExercise(t, trainer.token, {
      name: "Supino reto",
      category: "PEITO",
      isPublic: true,
      videoUrl: "https://v.example.com/s",
      instructions: ["a"],
    });
    await createExercise(t, trainer.token, { name: "Supino inclinado", category: "PEITO" });
    await createExercise(t, student.token, { name: "Remada do aluno", category: "COSTAS" });
    await createExercise(t, (await makeTrainer(t)).token, { name: "Remada de outro", category: "COSTAS" });
    await createExercise(t, (await makeTrainer(t)).token, { name: "Crucifixo 100%", category: "PEITO", isPublic: true });
    return { trainer, student };
  }

  it("lists the same exercises as REST, with or without a token, and leaves the detail fields null", async () => {
    const { trainer } = await library();
    for (const user of [null, trainer]) {
      const rest = await t.get("/api/exercises", { token: user?.token });
      const body = await gql(EXERCISES, {}, user);
      expect(body.errors).toBeUndefined();
      const page = body.data.exercises;
      expect(page).toMatchObject({ totalElements: rest.body.totalElements, totalPages: rest.body.totalPages, number: 0, size: 20 });
      expect(page.content.map((e: { id: number }) => e.id)).toEqual(rest.body.content.map((e: { id: number }) => e.id));
      for (const [index, item] of page.content.entries()) {
        const { creator, ...fields } = item;
        expect(fields).toEqual({ ...rest.body.content[index], videoUrl: null, instructions: null, muscleGroups: null });
        expect(creator).toEqual({ id: item.createdBy, name: expect.any(String) });
      }
    }
    expect((await gql(EXERCISES)).data.exercises.totalElements).toBe(2);
    expect((await gql(EXERCISES, {}, trainer)).data.exercises.totalElements).toBe(4);
  });

  it("filters and pages like REST", async () => {
    const { trainer } = await library();
    const filtered = await gql(EXERCISES, { filter: { category: "PEITO", name: "SUPINO" }, page: { size: 1, page: 1, sort: ["name,desc"] } }, trainer);
    expect(filtered.errors).toBeUndefined();
    expect(filtered.data.exercises).toMatchObject({ totalElements: 2, totalPages: 2, number: 1, size: 1 });
    expect(filtered.data.exercises.content.map((e: { name: string }) => e.name)).toEqual(["Supino inclinado"]);

    const literal = await gql(EXERCISES, { filter: { name: "%" } }, trainer);
    expect(literal.data.exercises.content.map((e: { name: string }) => e.name)).toEqual(["Crucifixo 100%"]);
    const byCreator = await gql(EXERCISES, { filter: { createdBy: trainer.id, isPublic: false } }, trainer);
    expect(byCreator.data.exercises.content.map((e: { name: string }) => e.name)).toEqual(["Supino inclinado"]);
    const clamped = await gql(EXERCISES, { page: { size: 500 } });
    expect(clamped.data.exercises.size).toBe(100);
  });

  it("counts the total only for a selection that shows it, and answers the same page either way", async () => {
    const { trainer } = await library();
    const CONTENT = `number size content { id name creator { name } }`;
    const page = (selection: string, fragment = "", variables: Record<string, unknown> = {}) =>
      gql(
        `query ($page: PageInput${selection.includes("$total") ? ", $total: Boolean!" : ""}) { exercises(page: $page) { ${selection} } }${fragment}`,
        { page: { size: 2, page: 1 }, ...variables },
        trainer,
      );
    /** Whether the page's statement counted its total (count over the rows before paging). */
    const counts = async (selection: string, variables: Record<string, unknown> = {}) => {
      const texts: string[] = [];
      const stop = t.database.observeQueries((statement) => void texts.push(statement));
      try {
        expect((await page(selection, "", variables)).errors).toBeUndefined();
      } finally {
        stop();
      }
      return texts.some((text) => text.includes("count(*) over ()"));
    };
    const counted = await page(`totalElements totalPages ${CONTENT}`);
    expect(counted.errors).toBeUndefined();
    expect(counted.data.exercises).toMatchObject({ totalElements: 4, totalPages: 2, number: 1, size: 2 });
    const shown = { number: 1, size: 2, content: counted.data.exercises.content };
    expect(await page(CONTENT)).toEqual({ data: { exercises: shown } });
    // Under an alias, and from a fragment, the total is shown, so counted; a field's other alias counts on its own.
    expect(await page(`${CONTENT} count: totalElements } other: exercises(page: $page) { ${CONTENT}`)).toEqual({
      data: { exercises: { ...shown, count: 4 }, other: shown },
    });
    expect(await page(`${CONTENT} ...Total`, " fragment Total on ExercisePage { totalPages }")).toEqual({ data: { exercises: { ...shown, totalPages: 2 } } });
    // A total left out by @include is not counted; included, it is.
    expect(await page(`${CONTENT} totalElements @include(if: $total)`, "", { total: false })).toEqual({ data: { exercises: shown } });
    expect(await counts(CONTENT)).toBe(false);
    expect(await counts(`${CONTENT} totalElements @include(if: $total)`, { total: false })).toBe(false);
    expect(await counts(`${CONTENT} totalElements @include(if: $total)`, { total: true })).toBe(true);
    expect(await counts(`totalPages ${CONTENT}`)).toBe(true);
  });

  it("reads only the columns the selection reads, and answers what the whole rows answer", async () => {
    const { trainer } = await library();
    const selections = [
      `id`,
      `__typename name`,
      `n: name c: creator { name }`,
      `creator { __typename }`,
      `createdBy isPublic imageUrl ... on Exercise { category difficulty equipment createdAt updatedAt description }`,
      `videoUrl instructions muscleGroups creator { id userType profilePicture }`,
    ];
    const [first, second] = (await gql(`query ($me: Int!) { exercises(filter: { createdBy: $me }) { content { id } } }`, { me: trainer.id }, trainer)).data
      .exercises.content;
    for (const selection of selections) {
      // A lookup by id reads the whole row.
      const body = await gql(
        `query ($me: Int!, $a: Int!, $b: Int!) {
          exercises(filter: { createdBy: $me }) { content { ${selection} } } a: exercise(id: $a) { ${selection} } b: exercise(id: $b) { ${selection} }
        }`,
        { me: trainer.id, a: first.id, b: second.id },
        trainer,
      );
      expect(body.errors, selection).toBeUndefined();
      const listed = body.data.exercises.content;
      expect(listed, selection).toHaveLength(2);
      const lookedUp = [body.data.a, body.data.b];
      // Listings leave the detail fields null.
      for (const exercise of lookedUp) for (const detail of ["videoUrl", "instructions", "muscleGroups"]) if (detail in exercise) exercise[detail] = null;
      expect(listed, selection).toEqual(lookedUp);
    }
    // And the statement does read only those: asked the names, it reads no description.
    const texts: string[] = [];
    const stop = t.database.observeQueries((statement) => void texts.push(statement));
    try {
      expect((await gql(`{ exercises { content { name } } }`, {}, trainer)).errors).toBeUndefined();
    } finally {
      stop();
    }
    expect(texts.some((text) => text.includes('"name"'))).toBe(true);
    expect(texts.some((text) => text.includes('"description"'))).toBe(false);
  });

  it("reads page fields sent as null as not given: the first page of 20, by the default order", async () => {
    const { trainer } = await library();
    const nulls = await gql(EXERCISES, { page: { page: null, size: null, sort: null } }, trainer);
    const absent = await gql(EXERCISES, {}, trainer);
    expect(nulls.errors).toBeUndefined();
    expect(nulls.data.exercises).toMatchObject({ number: 0, size: 20, totalElements: 4 });
    expect(nulls.data.exercises).toEqual(absent.data.exercises);
  });

  it.each([
    ["page", { page: -1 }, "page=-1"],
    ["size", { size: 0 }, "size=0"],
    ["sort", { sort: ["password,asc"] }, "sort=password,asc"],
  ])("answers BAD_USER_INPUT Parâmetro inválido: %s like REST", async (param, page, query) => {
    const rest = await t.get(`/api/exercises?${query}`, { invalidRequest: true });
    const error = onlyError(await gql(EXERCISES, { page }));
    expect(rest.status).toBe(400);
    expect(error.message).toBe(`Parâmetro inválido: ${param}`);
    expect(rest.body.message).toBe(error.message);
    expect(error.extensions).toEqual({ code: "BAD_USER_INPUT", status: 400 });
  });

  it("reads filter fields sent as null as not given, like absent ones", async () => {
    const { trainer } = await library();
    const filter = { category: null, name: null, createdBy: null, isPublic: null, difficulty: null, equipment: null };
    const nulls = await gql(EXERCISES, { filter }, trainer);
    expect(nulls.errors).toBeUndefined();
    expect(nulls.data.exercises.totalElements).toBe(4);
    expect(nulls.data.exercises).toEqual((await gql(EXERCISES, {}, trainer)).data.exercises);
  });

  it("takes a name filter's text as typed, as REST takes it percent-encoded", async () => {
    const { trainer } = await library();
    const name = 'Rosca 21s, "Z" & 1/2 + 3 = 50% #2 ✓';
    await createExercise(t, trainer.token, { name, category: "BICEPS", isPublic: true });
    const rest = await t.get(`/api/exercises?name=${encodeURIComponent(name)}`);
    const graphql = await gql(EXERCISES, { filter: { name } });
    expect(rest.body.content.map((e: { name: string }) => e.name)).toEqual([name]);
    expect(graphql.data.exercises.content.map((e: { name: string }) => e.name)).toEqual([name]);
  });

  it.each([
    ["createdBy", { createdBy: 0 }, "createdBy=0"],
    ["createdBy", { createdBy: -1 }, "createdBy=-1"],
    ["name", { name: "a".repeat(121) }, `name=${"a".repeat(121)}`],
    ["name", { name: "a\u0000b" }, "name=a%00b"],
  ])("refuses a %s REST refuses with the same Parâmetro inválido", async (param, filter, query) => {
    const rest = await t.get(`/api/exercises?${query}`, { invalidRequest: true });
    const error = onlyError(await gql(EXERCISES, { filter }));
    expect(rest.body).toEqual({ message: `Parâmetro inválido: ${param}`, success: false });
    expect(error).toMatchObject({ message: rest.body.message, extensions: { code: "BAD_USER_INPUT", status: 400 } });
  });

  it("lists only the caller's exercises in myExercises, and refuses an anonymous caller", async () => {
    const { trainer } = await library();
    const body = await gql(MY_EXERCISES, { page: { sort: ["name,asc"] } }, trainer);
    expect(body.data.myExercises).toEqual({
      content: [expect.objectContaining({ name: "Supino inclinado" }), expect.objectContaining({ name: "Supino reto" })],
      totalElements: 2,
      totalPages: 1,
      number: 0,
      size: 20,
    });
    const anonymous = onlyError(await gql(MY_EXERCISES));
    expect(anonymous).toMatchObject({ message: "Token inválido ou expirado", extensions: { code: "UNAUTHENTICATED", status: 401 } });
  });
});

describe("GraphQL createExercise", () => {
  it("creates the exercise from a JSON request and answers it as REST would show it", async () => {
    const trainer = await makeTrainer(t, { name: "Dani" });
    const body = await gql(CREATE, { input: FULL }, trainer);
    expect(body.errors).toBeUndefined();
    const { creator, ...created } = body.data.createExercise;
    expect(created).toMatchObject({ ...FULL, imageUrl: null, createdBy: trainer.id });
    expect(creator).toEqual({ id: trainer.id, name: "Dani" });
    expect((await t.get(`/api/exercises/${created.id}`)).body).toEqual(created);
    expect(await exerciseRows(t)).toHaveLength(1);
  });

  it("takes null in the nullable input fields as not given", async () => {
    const trainer = await makeTrainer(t);
    const input = {
      name: "Prancha",
      description: "Segure",
      category: "ABDOMEN",
      isPublic: null,
      difficulty: null,
      equipment: null,
      videoUrl: null,
      instructions: null,
      muscleGroups: null,
    };
    const body = await gql(CREATE, { input }, trainer);
    expect(body.errors).toBeUndefined();
    expect(body.data.createExercise).toMatchObject({ isPublic: false, difficulty: null, equipment: null, videoUrl: null, instructions: [], muscleGroups: [] });
  });

  it("stores an image sent as a GraphQL multipart request, judged by its bytes", async () => {
    const trainer = await makeTrainer(t);
    const res = await graphqlUpload(t, CREATE, { input: FULL }, pngPart("foto.gif", "image/gif"), trainer.token);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const url: string = res.body.data.createExercise.imageUrl;
    expect(url).toMatch(new RegExp(`^${t.baseUrl}/uploads/[0-9a-f]{32}\\.png$`));
    expect(readFileSync(fileOf(t, url)).equals(PNG)).toBe(true);
    const served = await fetch(url);
    expect(served.headers.get("content-type")).toBe("image/png");
  });

  it("keeps the stored image of a created exercise when reading its answer after the commit fails", async () => {
    const trainer = await makeTrainer(t);
    // The database fails the read of the answer (its author asked), once the exercise is committed.
    const read = vi.spyOn(exerciseRepository, "findTree").mockRejectedValueOnce(new Error("connection lost"));
    try {
      const res = await graphqlUpload(t, CREATE, { input: FULL }, pngPart(), trainer.token);
      expect(onlyError(res.body).extensions).toEqual({ code: "INTERNAL_SERVER_ERROR", status: 500 });
    } finally {
      read.mockRestore();
    }
    const [row] = await exerciseRows(t);
    expect(row).toMatchObject({ name: FULL.name, createdBy: trainer.id });
    expect(existsSync(fileOf(t, row.imageUrl!))).toBe(true);
    expect(storedFiles(t)).toHaveLength(1);
  });

  it.each([
    ["a non-image file", { bytes: Buffer.from("apenas texto"), filename: "foto.jpg", type: "image/jpeg" }, INVALID_IMAGE.message],
    ["a file over 5 MB", pngOfSize(FIVE_MB + 1), TOO_LARGE.message],
  ])("refuses %s with the REST message and writes nothing", async (_label, file, message) => {
    const trainer = await makeTrainer(t);
    const rest = await t.post("/api/exercises", { token: trainer.token, raw: exerciseForm(FULL, file) });
    const error = onlyError((await graphqlUpload(t, CREATE, { input: FULL }, file, trainer.token)).body);
    expect(error.message).toBe(message);
    expect(rest.body).toEqual({ message, success: false });
    expect(error.extensions).toEqual({ code: "BAD_USER_INPUT", status: 400 });
    expect(await exerciseRows(t)).toEqual([]);
    expect(storedFiles(t)).toEqual([]);
  });

  it("refuses a public exercise from a student with FORBIDDEN and the REST message, writing nothing", async () => {
    const student = await makeStudent(t);
    const rest = await t.post("/api/exercises", { token: student.token, raw: exerciseForm(FULL) });
    const error = onlyError((await graphqlUpload(t, CREATE, { input: FULL }, pngPart(), student.token)).body);
    expect(rest.status).toBe(403);
    expect(error.message).toBe("Apenas personal trainers podem criar conteúdo público");
    expect(rest.body.message).toBe(error.message);
    expect(error.extensions).toEqual({ code: "FORBIDDEN", status: 403 });
    expect(await exerciseRows(t)).toEqual([]);
    expect(storedFiles(t)).toEqual([]);
  });

  it("lets a student create a private exercise", async () => {
    const student = await makeStudent(t);
    const body = await gql(CREATE, { input: { ...FULL, isPublic: false } }, student);
    expect(body.errors).toBeUndefined();
    expect(body.data.createExercise).toMatchObject({ isPublic: false, createdBy: student.id });
  });

  it.each([
    ["a blank name", { ...FULL, name: "  " }],
    ["a description of 2001 characters", { ...FULL, description: "d".repeat(2001) }],
    ["an ftp videoUrl", { ...FULL, videoUrl: "ftp://x" }],
    ["a javascript: videoUrl", { ...FULL, videoUrl: "javascript:alert(1)" }],
    ["51 instructions", { ...FULL, instructions: Array.from({ length: 51 }, (_, i) => `Passo ${i}`) }],
    ["repeated muscleGroups", { ...FULL, muscleGroups: ["PEITO", "PEITO"] }],
    ["several problems at once", { ...FULL, name: "", description: " ", videoUrl: "ftp://x", muscleGroups: ["OMBRO", "OMBRO"] }],
  ])("answers BAD_USER_INPUT with the REST message and errors list for %s", async (_label, input) => {
    const trainer = await makeTrainer(t);
    const rest = await t.post("/api/exercises", { invalidRequest: true, token: trainer.token, raw: exerciseForm(input) });
    const error = onlyError(await gql(CREATE, { input }, trainer));
    expect(rest.status).toBe(400);
    expect(error.message).toBe("Validation failed");
    expect(rest.body.message).toBe(error.message);
    expect(error.extensions).toEqual({ code: "BAD_USER_INPUT", status: 400, errors: rest.body.errors });
    expect(await exerciseRows(t)).toEqual([]);
  });

  it("refuses an anonymous caller with UNAUTHENTICATED and writes nothing", async () => {
    const error = onlyError((await graphqlUpload(t, CREATE, { input: FULL }, pngPart())).body);
    expect(error).toMatchObject({ message: "Token inválido ou expirado", extensions: { code: "UNAUTHENTICATED", status: 401 } });
    expect(await exerciseRows(t)).toEqual([]);
    expect(storedFiles(t)).toEqual([]);
  });
});

describe("GraphQL updateExercise", () => {
  it("replaces every field and the image: ?v=2, the old file removed, the new one served", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL, pngPart());
    const res = await graphqlUpload(t, UPDATE, { id: created.id, input: REPLACEMENT }, jpegPart(), trainer.token);
    expect(res.body.errors).toBeUndefined();
    const updated = res.body.data.updateExercise;
    expect(updated).toMatchObject({
      ...REPLACEMENT,
      id: created.id,
      isPublic: false,
      difficulty: null,
      videoUrl: null,
      muscleGroups: [],
      createdBy: trainer.id,
      imageUrl: expect.stringMatching(/\/uploads\/[0-9a-f]{32}\.jpg\?v=2$/),
    });
    expect(existsSync(fileOf(t, created.imageUrl))).toBe(false);
    expect(readFileSync(fileOf(t, updated.imageUrl)).equals(JPEG)).toBe(true);
    expect((await t.get(`/api/exercises/${created.id}`, { token: trainer.token })).body).toEqual(updated);
  });

  it("keeps the image when no file is sent", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL, pngPart());
    const body = await gql(UPDATE, { id: created.id, input: REPLACEMENT }, trainer);
    expect(body.data.updateExercise.imageUrl).toBe(created.imageUrl);
    expect(existsSync(fileOf(t, created.imageUrl))).toBe(true);
  });

  it("lets an administrator update another user's exercise", async () => {
    const owner = await makeTrainer(t);
    const created = await createExercise(t, owner.token, FULL);
    const body = await gql(UPDATE, { id: created.id, input: REPLACEMENT }, await makeAdmin());
    expect(body.errors).toBeUndefined();
    expect(body.data.updateExercise).toMatchObject({ name: REPLACEMENT.name, createdBy: owner.id });
  });

  it("answers FORBIDDEN and NOT_FOUND with the REST messages, changing and writing nothing", async () => {
    const owner = await makeTrainer(t);
    const other = await makeTrainer(t);
    const created = await createExercise(t, owner.token, FULL, pngPart());
    const before = await exerciseRow(t, created.id);
    for (const [id, code, status] of [
      [created.id, "FORBIDDEN", 403],
      [999_999, "NOT_FOUND", 404],
    ] as const) {
      const rest = await t.put(`/api/exercises/${id}`, { token: other.token, raw: exerciseForm(REPLACEMENT) });
      const error = onlyError((await graphqlUpload(t, UPDATE, { id, input: REPLACEMENT }, jpegPart(), other.token)).body);
      expect(rest.status).toBe(status);
      expect(error.message).toBe(rest.body.message);
      expect(error.extensions).toEqual({ code, status });
    }
    expect(await exerciseRow(t, created.id)).toEqual(before);
    expect(storedFiles(t)).toHaveLength(1);
  });

  it("answers BAD_USER_INPUT with the REST errors list for an invalid replacement", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL);
    const input = { ...REPLACEMENT, name: " ", instructions: ["ok", ""] };
    const rest = await t.put(`/api/exercises/${created.id}`, { invalidRequest: true, token: trainer.token, raw: exerciseForm(input) });
    const error = onlyError(await gql(UPDATE, { id: created.id, input }, trainer));
    expect(rest.status).toBe(400);
    expect(error.message).toBe(rest.body.message);
    expect(error.extensions).toEqual({ code: "BAD_USER_INPUT", status: 400, errors: rest.body.errors });
  });
});

describe("GraphQL deleteExercise", () => {
  it("deletes the creator's exercise and its image", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL, pngPart());
    const body = await gql(DELETE, { id: created.id }, trainer);
    expect(body).toEqual({ data: { deleteExercise: true } });
    expect(await exerciseRow(t, created.id)).toBeNull();
    expect(storedFiles(t)).toEqual([]);
  });

  it("answers CONFLICT with the REST message while a training uses it, and deletes nothing", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, FULL);
    await createTraining(t, trainer.token, [created.id]);
    const rest = await t.delete(`/api/exercises/${created.id}`, { token: trainer.token });
    const error = onlyError(await gql(DELETE, { id: created.id }, trainer));
    expect(rest.status).toBe(409);
    expect(error.message).toBe("Exercício está em uso em treinos");
    expect(rest.body.message).toBe(error.message);
    expect(error.extensions).toEqual({ code: "CONFLICT", status: 409 });
    expect(await exerciseRow(t, created.id)).not.toBeNull();
  });

  it("answers FORBIDDEN, NOT_FOUND and UNAUTHENTICATED with the REST messages", async () => {
    const owner = await makeTrainer(t);
    const other = await makeStudent(t);
    const created = await createExercise(t, owner.token, FULL);
    const cases: Array<[number, MadeUser | null, string, number]> = [
      [created.id, other, "FORBIDDEN", 403],
      [999_999, other, "NOT_FOUND", 404],
      [created.id, null, "UNAUTHENTICATED", 401],
    ];
    for (const [id, user, code, status] of cases) {
      const error = onlyError(await gql(DELETE, { id }, user));
      const rest = await t.delete(`/api/exercises/${id}`, { token: user?.token });
      expect(rest.status).toBe(status);
      expect(error.message).toBe(rest.body.message);
      expect(error.extensions).toEqual({ code, status });
    }
    expect(await exerciseRow(t, created.id)).not.toBeNull();
  });
});
