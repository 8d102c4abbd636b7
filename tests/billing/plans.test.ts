import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { subscriptionPlans } from "../../src/tables/billing.table.js";
import { makeStudent, makeTrainer } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp();

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const STUDENT_FEATURES = ["Treinos ilimitados", "Estatísticas de progresso", "Recordes pessoais"];
const trainerFeatures = (first: string) => [first, "Planos de treino", "Acompanhamento de execuções"];

/** Contract §8's catalogue, in the listing's order (students first, then by price). */
const CATALOGUE = [
  {
    name: "Mensal",
    description: "Acesso premium com cobrança mensal",
    userType: "ALUNO",
    price: 49.9,
    interval: "MONTHLY",
    maxStudents: null,
    features: STUDENT_FEATURES,
  },
  {
    name: "Trimestral",
    description: "Acesso premium com cobrança trimestral",
    userType: "ALUNO",
    price: 129.9,
    interval: "QUARTERLY",
    maxStudents: null,
    features: STUDENT_FEATURES,
  },
  {
    name: "Semestral",
    description: "Acesso premium com cobrança semestral",
    userType: "ALUNO",
    price: 239.9,
    interval: "SEMIANNUAL",
    maxStudents: null,
    features: STUDENT_FEATURES,
  },
  {
    name: "Anual",
    description: "Acesso premium com cobrança anual",
    userType: "ALUNO",
    price: 449.9,
    interval: "ANNUAL",
    maxStudents: null,
    features: STUDENT_FEATURES,
  },
  {
    name: "Básico",
    description: "Para personal trainers começando: até 5 alunos",
    userType: "PERSONAL",
    price: 99.9,
    interval: "MONTHLY",
    maxStudents: 5,
    features: trainerFeatures("Até 5 alunos"),
  },
  {
    name: "Intermediário",
    description: "Para personal trainers em crescimento: até 15 alunos",
    userType: "PERSONAL",
    price: 199.9,
    interval: "MONTHLY",
    maxStudents: 15,
    features: trainerFeatures("Até 15 alunos"),
  },
  {
    name: "Avançado",
    description: "Para estúdios: até 30 alunos",
    userType: "PERSONAL",
    price: 299.9,
    interval: "MONTHLY",
    maxStudents: 30,
    features: trainerFeatures("Até 30 alunos"),
  },
  {
    name: "Ilimitado",
    description: "Alunos ilimitados",
    userType: "PERSONAL",
    price: 399.9,
    interval: "MONTHLY",
    maxStudents: null,
    features: trainerFeatures("Alunos ilimitados"),
  },
];

const names = (plans: Array<{ name: string }>) => plans.map((plan) => plan.name);

describe("GET /api/subscription-plans", () => {
  it("lists the 8 seeded plans of the catalogue as a plain array with exact prices in BRL", async () => {
    const student = await makeStudent(t);
    const res = await t.get("/api/subscription-plans", { token: student.token });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(8);
    expect(res.body).toEqual(
      CATALOGUE.map((plan) => ({
        id: expect.any(Number),
        ...plan,
        currency: "BRL",
        active: true,
        createdAt: expect.stringMatching(TIMESTAMP),
        updatedAt: expect.stringMatching(TIMESTAMP),
      })),
    );
    // Prices are the exact JSON numbers (no float noise such as 49.900000001).
    expect(res.text).toContain('"price":49.9,');
    expect(res.body.map((plan: { price: number }) => plan.price)).toEqual([49.9, 129.9, 239.9, 449.9, 99.9, 199.9, 299.9, 399.9]);
    expect(new Set(res.body.map((plan: { id: number }) => plan.id)).size).toBe(8);
  });

  it("shows the same catalogue to a trainer", async () => {
    const trainer = await makeTrainer(t);
    const res = await t.get("/api/subscription-plans", { token: trainer.token });
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(names(CATALOGUE));
  });

  it("filters by userType", async () => {
    const student = await makeStudent(t);
    const alunos = await t.get("/api/subscription-plans?userType=ALUNO", { token: student.token });
    expect(alunos.status).toBe(200);
    expect(names(alunos.body)).toEqual(["Mensal", "Trimestral", "Semestral", "Anual"]);
    const personals = await t.get("/api/subscription-plans?userType=PERSONAL", { token: student.token });
    expect(names(personals.body)).toEqual(["Básico", "Intermediário", "Avançado", "Ilimitado"]);
    expect(personals.body.map((plan: { maxStudents: number | null }) => plan.maxStudents)).toEqual([5, 15, 30, null]);
  });

  it("filters by interval, alone and combined with userType", async () => {
    const student = await makeStudent(t);
    const monthly = await t.get("/api/subscription-plans?interval=MONTHLY", { token: student.token });
    expect(names(monthly.body)).toEqual(["Mensal", "Básico", "Intermediário", "Avançado", "Ilimitado"]);
    for (const [interval, name] of [
      ["QUARTERLY", "Trimestral"],
      ["SEMIANNUAL", "Semestral"],
      ["ANNUAL", "Anual"],
    ]) {
      const res = await t.get(`/api/subscription-plans?interval=${interval}`, { token: student.token });
      expect(res.status).toBe(200);
      expect(names(res.body)).toEqual([name]);
    }
    const none = await t.get("/api/subscription-plans?userType=PERSONAL&interval=ANNUAL", { token: student.token });
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
  });

  it("filters by active, and an inactive plan shows only under active=false", async () => {
    const student = await makeStudent(t);
    const active = await t.get("/api/subscription-plans?active=true", { token: student.token });
    expect(active.body).toHaveLength(8);
    const inactive = await t.get("/api/subscription-plans?active=false", { token: student.token });
    expect(inactive.status).toBe(200);
    expect(inactive.body).toEqual([]);

    // The catalogue is seeded and survives the per-test reset: restore the plan whatever happens.
    try {
      await t.db.update(subscriptionPlans).set({ active: false }).where(eq(subscriptionPlans.name, "Anual"));
      const onlyInactive = await t.get("/api/subscription-plans?active=false", { token: student.token });
      expect(names(onlyInactive.body)).toEqual(["Anual"]);
      expect(onlyInactive.body[0].active).toBe(false);
      const stillActive = await t.get("/api/subscription-plans?active=true&userType=ALUNO", { token: student.token });
      expect(names(stillActive.body)).toEqual(["Mensal", "Trimestral", "Semestral"]);
      const all = await t.get("/api/subscription-plans", { token: student.token });
      expect(all.body).toHaveLength(8);
    } finally {
      await t.db.update(subscriptionPlans).set({ active: true }).where(eq(subscriptionPlans.name, "Anual"));
    }
  });

  it.each([
    ["interval", "interval=WEEKLY"],
    ["interval", "interval=monthly"],
    ["userType", "userType=ADMIN"],
    ["active", "active=yes"],
    ["active", "active=1"],
  ])("answers 400 Parâmetro inválido: %s to %s", async (param, query) => {
    const student = await makeStudent(t);
    const res = await t.get(`/api/subscription-plans?${query}`, { invalidRequest: true, token: student.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `Parâmetro inválido: ${param}`, success: false });
  });

  it("answers 401 without a token or with a bad one", async () => {
    for (const token of [undefined, "not-a-jwt"]) {
      const res = await t.get("/api/subscription-plans", { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
    }
  });
});

describe("GET /api/subscription-plans/{id}", () => {
  it("answers 200 with one plan, the same as in the listing", async () => {
    const student = await makeStudent(t);
    const list = await t.get("/api/subscription-plans", { token: student.token });
    for (const plan of list.body) {
      const res = await t.get(`/api/subscription-plans/${plan.id}`, { token: student.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(plan);
    }
    const basico = list.body.find((plan: { name: string }) => plan.name === "Básico");
    const one = await t.get(`/api/subscription-plans/${basico.id}`, { token: student.token });
    expect(one.body).toMatchObject({ name: "Básico", userType: "PERSONAL", price: 99.9, currency: "BRL", interval: "MONTHLY", maxStudents: 5, active: true });
  });

  it("answers 404 Plano não encontrado for an unknown id", async () => {
    const student = await makeStudent(t);
    const res = await t.get("/api/subscription-plans/999999", { token: student.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Plano não encontrado", success: false });
  });

  it.each(["abc", "1.5", "-1", "0", "99999999999"])("answers 400 Parâmetro inválido: id for %s", async (id) => {
    const student = await makeStudent(t);
    const res = await t.get(`/api/subscription-plans/${id}`, { invalidRequest: true, token: student.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Parâmetro inválido: id", success: false });
  });

  it("answers 401 without a token", async () => {
    const res = await t.get("/api/subscription-plans/1");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
  });
});
