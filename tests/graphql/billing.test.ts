import { describe, expect, it } from "vitest";
import { linkTrainerAndStudent } from "../factories/content.js";
import { makeStudent, makeTrainer } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp({ ADMIN_EMAILS: "boss@example.com", FREE_TRAINER_MAX_STUDENTS: "10" });

const card = { cardNumber: "4242424242424242", cardHolderName: "Ana Souza", cardExpirationMonth: "12", cardExpirationYear: "2099", cardCvv: "123" };
const SUBSCRIPTION_FIELDS =
  "id userId userName planId planName status startDate endDate renewalDate canceledAt price currency paymentMethod lastFourDigits autoRenew";

async function planId(token: string, name: string) {
  const res = await t.get("/api/subscription-plans", { token });
  return res.body.find((plan: { name: string }) => plan.name === name).id as number;
}

describe("billing over GraphQL", () => {
  it("lists the plan catalogue with the same data as REST", async () => {
    const ana = await makeStudent(t);
    const rest = await t.get("/api/subscription-plans?userType=PERSONAL", { token: ana.token });
    const gql = await t.graphql(
      `query { subscriptionPlans(filter: {userType: PERSONAL}) { id name description userType price currency interval features maxStudents active createdAt updatedAt } }`,
      {},
      ana.token,
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data.subscriptionPlans).toEqual(rest.body);
    expect(gql.data.subscriptionPlans.map((p: { maxStudents: number | null }) => p.maxStudents)).toEqual([5, 15, 30, null]);
  });

  it("moves a PIX subscription to a card with updateSubscription, saving the card without charging it, as REST does", async () => {
    const ana = await makeStudent(t);
    const mensal = await planId(ana.token, "Mensal");
    const pix = await t.post("/api/subscriptions", { token: ana.token, body: { planId: mensal, paymentMethod: "PIX" } });
    expect(pix.status).toBe(201);

    const updated = await t.graphql(
      `mutation($id: Int!, $input: UpdateSubscriptionInput!) { updateSubscription(id: $id, input: $input) { id paymentMethod lastFourDigits autoRenew } }`,
      { id: pix.body.id, input: { paymentMethod: "CREDIT_CARD", autoRenew: false, ...card, cardNumber: "5555555555554444" } },
      ana.token,
    );
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updateSubscription).toEqual({ id: pix.body.id, paymentMethod: "CREDIT_CARD", lastFourDigits: "4444", autoRenew: false });
    const rest = await t.get("/api/subscriptions/my-subscription", { token: ana.token });
    expect(rest.body).toMatchObject({ id: pix.body.id, paymentMethod: "CREDIT_CARD", lastFourDigits: "4444", autoRenew: false });
    const payments = await t.get("/api/payments", { token: ana.token });
    expect(payments.body.totalElements).toBe(0);

    const noCard = await t.graphql(
      `mutation($id: Int!) { updateSubscription(id: $id, input: { paymentMethod: CREDIT_CARD, cardNumber: "4111" }) { id } }`,
      { id: pix.body.id },
      ana.token,
    );
    expect(noCard.errors![0].extensions).toMatchObject({ code: "BAD_USER_INPUT", status: 400 });
  });

  it("subscribes by card, then shows the subscription, payment and invoice as REST does", async () => {
    const ana = await makeStudent(t);
    const mensal = await planId(ana.token, "Mensal");
    const subscribed = await t.graphql(
      `mutation($input: SubscribeInput!) { subscribe(input: $input) { ${SUBSCRIPTION_FIELDS} } }`,
      { input: { planId: mensal, paymentMethod: "CREDIT_CARD", ...card } },
      ana.token,
    );
    expect(subscribed.errors).toBeUndefined();
    expect(subscribed.data.subscribe).toMatchObject({ status: "ACTIVE", price: 49.9, lastFourDigits: "4242", planName: "Mensal" });

    const rest = await t.get("/api/subscriptions/my-subscription", { token: ana.token });
    const mine = await t.graphql(`query { mySubscription { ${SUBSCRIPTION_FIELDS} } }`, {}, ana.token);
    expect(mine.data.mySubscription).toEqual(Object.fromEntries(Object.entries(rest.body).filter(([key]) => key !== "createdAt" && key !== "updatedAt")));
    // The object type is UserSubscription, leaving the name Subscription to the root type of live updates.
    const typed = await t.graphql(`query { mySubscription { __typename ...on UserSubscription { planName } } }`, {}, ana.token);
    expect(typed.data.mySubscription).toEqual({ __typename: "UserSubscription", planName: "Mensal" });

    const records = await t.graphql(
      `query { payments { totalElements content { amount status transactionId invoiceUrl } } invoices(filter: {status: PAID}) { totalElements content { id amount status planName } } }`,
      {},
      ana.token,
    );
    expect(records.data.payments.totalElements).toBe(1);
    expect(records.data.payments.content[0]).toMatchObject({ amount: 49.9, status: "COMPLETED" });
    expect(records.data.invoices.content[0]).toMatchObject({ amount: 49.9, status: "PAID", planName: "Mensal" });
  });

  it("answers a refused card with UNPROCESSABLE and the decline code, as REST answers 422", async () => {
    const ana = await makeStudent(t);
    const mensal = await planId(ana.token, "Mensal");
    const res = await t.graphql(
      `mutation($input: SubscribeInput!) { subscribe(input: $input) { id } }`,
      { input: { planId: mensal, paymentMethod: "CREDIT_CARD", ...card, cardNumber: "4000000000000002" } },
      ana.token,
    );
    expect(res.errors![0].message).toBe("Pagamento recusado");
    expect(res.errors![0].extensions).toEqual({ code: "UNPROCESSABLE", status: 422, details: "card_declined" });
  });

  it("subscribes by PIX, returns the QR code, and pays through simulatePixPayment", async () => {
    const ana = await makeStudent(t);
    const mensal = await planId(ana.token, "Mensal");
    const res = await t.graphql(
      `mutation($input: SubscribeInput!) { subscribe(input: $input) { id status pix { id status amount brCode brCodeBase64 } } }`,
      { input: { planId: mensal, paymentMethod: "PIX" } },
      ana.token,
    );
    expect(res.data.subscribe.status).toBe("PENDING");
    expect(res.data.subscribe.pix.brCode).toMatch(/^000201/);
    const paid = await t.graphql(`mutation($id: String!) { simulatePixPayment(id: $id) { status } }`, { id: res.data.subscribe.pix.id }, ana.token);
    expect(paid.data.simulatePixPayment.status).toBe("PAID");
    const polled = await t.graphql(`query($id: String!) { pixTransaction(id: $id) { status } }`, { id: res.data.subscribe.pix.id }, ana.token);
    expect(polled.data.pixTransaction.status).toBe("PAID");
    const me = await t.graphql(`query { me { subscriptionType subscription { status planName } } }`, {}, ana.token);
    expect(me.data.me).toEqual({ subscriptionType: "PREMIUM_MENSAL", subscription: { status: "ACTIVE", planName: "Mensal" } });
  });

  it("answers pixTransaction with an id no transaction can have as REST does: BAD_USER_INPUT, Parâmetro inválido: id", async () => {
    const ana = await makeStudent(t);
    const query = `query($id: String!) { pixTransaction(id: $id) { id status } }`;
    for (const [id, path] of [
      ["pix\u0000id", "pix%00id"],
      ["p".repeat(201), "p".repeat(201)],
    ]) {
      const res = await t.graphql(query, { id }, ana.token);
      expect(res.data).toEqual({ pixTransaction: null });
      expect(res.errors![0]).toMatchObject({ message: "Parâmetro inválido: id", extensions: { code: "BAD_USER_INPUT", status: 400 } });
      const rest = await t.get(`/api/billing/status/${path}`, { invalidRequest: true, token: ana.token });
      expect(rest.status).toBe(400);
      expect(rest.body.message).toBe(res.errors![0].message);
    }
  });

  it("takes SubscribeInput's nullable card fields sent as null as not given", async () => {
    const ana = await makeStudent(t);
    const mensal = await planId(ana.token, "Mensal");
    const nulls = { cardNumber: null, cardHolderName: null, cardExpirationMonth: null, cardExpirationYear: null, cardCvv: null };
    const mutation = `mutation($input: SubscribeInput!) { subscribe(input: $input) { id status paymentMethod pix { status } } }`;
    const byCard = await t.graphql(mutation, { input: { planId: mensal, paymentMethod: "CREDIT_CARD", ...nulls } }, ana.token);
    expect(byCard.data).toEqual({ subscribe: null });
    expect(byCard.errors![0]).toMatchObject({ message: "Validation failed", extensions: { code: "BAD_USER_INPUT", status: 400 } });
    expect(byCard.errors![0].extensions.errors.map((e: { field: string; message: string }) => [e.field, e.message])).toEqual([
      ["cardNumber", "Número do cartão é obrigatório"],
      ["cardHolderName", "Nome do titular do cartão é obrigatório"],
      ["cardExpirationMonth", "Mês de validade é obrigatório"],
      ["cardExpirationYear", "Ano de validade é obrigatório"],
      ["cardCvv", "CVV é obrigatório"],
    ]);
    const byPix = await t.graphql(mutation, { input: { planId: mensal, paymentMethod: "PIX", ...nulls } }, ana.token);
    expect(byPix.errors).toBeUndefined();
    expect(byPix.data.subscribe).toMatchObject({ status: "PENDING", paymentMethod: "PIX", pix: { status: "PENDING" } });
    const mine = await t.get("/api/subscriptions/my-subscription", { token: ana.token });
    expect(mine.body).toMatchObject({ id: byPix.data.subscribe.id, status: "PENDING" });
  });

  it("tells an anonymous caller so before anything about its input, as REST does", async () => {
    const input = { planId: 0, paymentMethod: "CREDIT_CARD", cardNumber: "1" };
    const anonymous = await t.graphql(`mutation($input: SubscribeInput!) { subscribe(input: $input) { id } }`, { input });
    expect(anonymous.errors![0]).toMatchObject({ message: "Token inválido ou expirado", extensions: { code: "UNAUTHENTICATED", status: 401 } });
    expect((await t.post("/api/subscriptions", { invalidRequest: true, body: input })).status).toBe(401);
  });

  it("cancels with the same rules and messages as REST", async () => {
    const ana = await makeStudent(t);
    const mensal = await planId(ana.token, "Mensal");
    const created = await t.post("/api/subscriptions", { token: ana.token, body: { planId: mensal, paymentMethod: "CREDIT_CARD", ...card } });
    const cancel = `mutation($id: Int!) { cancelSubscription(id: $id, cancelImmediately: true) { status canceledAt renewalDate } }`;
    const first = await t.graphql(cancel, { id: created.body.id }, ana.token);
    expect(first.data.cancelSubscription).toMatchObject({ status: "CANCELED", renewalDate: null });
    const again = await t.graphql(cancel, { id: created.body.id }, ana.token);
    expect(again.errors![0]).toMatchObject({ message: "Esta assinatura já está cancelada", extensions: { code: "CONFLICT", status: 409 } });
    const rest = await t.post(`/api/subscriptions/${created.body.id}/cancel`, { token: ana.token, body: {} });
    expect(rest.body.message).toBe(again.errors![0].message);
  });

  it("shows a user's subscription to administrators and refuses it to other users", async () => {
    const ana = await makeStudent(t);
    const bruno = await makeTrainer(t);
    const boss = await makeStudent(t, { email: "boss@example.com" });
    const mensal = await planId(ana.token, "Mensal");
    await t.post("/api/subscriptions", { token: ana.token, body: { planId: mensal, paymentMethod: "CREDIT_CARD", ...card } });
    const query = `query($id: Int!) { user(id: $id) { id subscription { status planName } } }`;
    const admin = await t.graphql(query, { id: ana.id }, boss.token);
    expect(admin.data.user).toEqual({ id: ana.id, subscription: { status: "ACTIVE", planName: "Mensal" } });
    const stranger = await t.graphql(query, { id: ana.id }, bruno.token);
    expect(stranger.errors![0].extensions.code).toBe("FORBIDDEN");
    const none = await t.graphql(`query { me { subscription { id } } }`, {}, bruno.token);
    expect(none.data.me.subscription).toBeNull();
  });

  it("gives an administrator the subscriptions of a trainer's students in as many statements for 6 students as for 2", async () => {
    const boss = await makeStudent(t, { email: "boss@example.com" });
    const mensal = await planId(boss.token, "Mensal");
    const anual = await planId(boss.token, "Anual");
    const query = `query($id: Int!) { user(id: $id) { students { student { id subscription { userId status planName paymentMethod } } } } }`;

    async function trainerWithStudents(count: number) {
      const coach = await makeTrainer(t);
      const students = [];
      for (let i = 0; i < count; i += 1) {
        const student = await makeStudent(t);
        await linkTrainerAndStudent(t, coach, student);
        students.push(student);
      }
      return { coach, students };
    }
    const small = await trainerWithStudents(2);
    const large = await trainerWithStudents(6);
    // In the large group: two on card plans, one waiting on PIX, the rest without a subscription.
    const [first, second, third] = large.students;
    expect((await t.post("/api/subscriptions", { token: first.token, body: { planId: mensal, paymentMethod: "CREDIT_CARD", ...card } })).status).toBe(201);
    expect((await t.post("/api/subscriptions", { token: second.token, body: { planId: anual, paymentMethod: "CREDIT_CARD", ...card } })).status).toBe(201);
    expect((await t.post("/api/subscriptions", { token: third.token, body: { planId: mensal, paymentMethod: "PIX" } })).status).toBe(201);

    async function measure(trainerId: number) {
      let statements = 0;
      const stop = t.database.observeQueries(() => (statements += 1));
      try {
        return { statements, body: await t.graphql(query, { id: trainerId }, boss.token) };
      } finally {
        stop();
      }
    }
    const { statements: smallCount, body: smallBody } = await measure(small.coach.id);
    const { statements: largeCount, body: largeBody } = await measure(large.coach.id);

    expect(smallBody.errors).toBeUndefined();
    expect(largeBody.errors).toBeUndefined();
    const byStudent = new Map(
      largeBody.data.user.students.map((link: { student: { id: number; subscription: unknown } }) => [link.student.id, link.student.subscription]),
    );
    expect(byStudent.get(first.id)).toEqual({ userId: first.id, status: "ACTIVE", planName: "Mensal", paymentMethod: "CREDIT_CARD" });
    expect(byStudent.get(second.id)).toEqual({ userId: second.id, status: "ACTIVE", planName: "Anual", paymentMethod: "CREDIT_CARD" });
    expect(byStudent.get(third.id)).toEqual({ userId: third.id, status: "PENDING", planName: "Mensal", paymentMethod: "PIX" });
    for (const other of large.students.slice(3)) expect(byStudent.get(other.id)).toBeNull();
    expect(largeCount).toBe(smallCount);
  });

  it("refuses a trainer its students' subscriptions, each with FORBIDDEN, and still gives the rest of the answer", async () => {
    const coach = await makeTrainer(t);
    const ana = await makeStudent(t);
    await linkTrainerAndStudent(t, coach, ana);
    const mensal = await planId(ana.token, "Mensal");
    expect((await t.post("/api/subscriptions", { token: ana.token, body: { planId: mensal, paymentMethod: "CREDIT_CARD", ...card } })).status).toBe(201);

    const res = await t.graphql(`query { me { students { student { id name subscription { status } } } } }`, {}, coach.token);

    expect(res.errors!.map((error) => [error.extensions.code, error.path])).toEqual([["FORBIDDEN", ["me", "students", 0, "student", "subscription"]]]);
    expect(res.data.me.students).toEqual([{ student: { id: ana.id, name: ana.user.name, subscription: null } }]);
  });

  it("lets administrators page through everyone's payments and others only through their own", async () => {
    const ana = await makeStudent(t);
    const carla = await makeStudent(t);
    const boss = await makeStudent(t, { email: "boss@example.com" });
    const mensal = await planId(ana.token, "Mensal");
    for (const user of [ana, carla]) {
      await t.post("/api/subscriptions", { token: user.token, body: { planId: mensal, paymentMethod: "CREDIT_CARD", ...card } });
    }
    const query = `query($page: PageInput, $filter: PaymentFilter) { payments(page: $page, filter: $filter) { totalElements totalPages number size content { userId } } }`;
    const all = await t.graphql(query, { page: { size: 1, sort: ["createdAt,asc"] } }, boss.token);
    expect(all.data.payments).toMatchObject({ totalElements: 2, totalPages: 2, number: 0, size: 1 });
    const one = await t.graphql(query, { filter: { userId: carla.id } }, boss.token);
    expect(one.data.payments.content).toEqual([{ userId: carla.id }]);
    const own = await t.graphql(query, { filter: { userId: carla.id } }, ana.token);
    expect(own.data.payments.content).toEqual([{ userId: ana.id }]);
    const bad = await t.graphql(query, { page: { sort: ["password,asc"] } }, ana.token);
    expect(bad.errors![0]).toMatchObject({ message: "Parâmetro inválido: sort", extensions: { code: "BAD_USER_INPUT", status: 400 } });
  });

  it("reads filter fields sent as null as not given, for records and for the plan catalogue", async () => {
    const ana = await makeStudent(t);
    const mensal = await planId(ana.token, "Mensal");
    await t.post("/api/subscriptions", { token: ana.token, body: { planId: mensal, paymentMethod: "CREDIT_CARD", ...card } });
    const nulls = { status: null, startDate: null, endDate: null, userId: null };
    const payments = await t.graphql(`query($filter: PaymentFilter) { payments(filter: $filter) { totalElements } }`, { filter: nulls }, ana.token);
    expect(payments.errors).toBeUndefined();
    expect(payments.data.payments.totalElements).toBe(1);
    const invoices = await t.graphql(`query($filter: InvoiceFilter) { invoices(filter: $filter) { totalElements } }`, { filter: nulls }, ana.token);
    expect(invoices.data.invoices.totalElements).toBe(1);
    const plans = await t.graphql(`query { subscriptionPlans(filter: { userType: null, active: null, interval: null }) { name } }`, {}, ana.token);
    expect(plans.errors).toBeUndefined();
    expect(plans.data.subscriptionPlans).toHaveLength(8);
  });
});
