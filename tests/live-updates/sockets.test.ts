import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket } from "ws";
import { makeUser } from "../factories/users.js";
import { decodeJwt } from "../helpers/jwt.js";
import { openSocket, type TestSocket } from "../helpers/graphql-socket.js";
import { useSecondInstance, useTestApp } from "../helpers/test-app.js";

// The WebSocket at /graphql (contract §14.2): who may open one, and when the server closes it.
const t = useTestApp();
const other = useSecondInstance(t);

const FOLLOW_EXECUTIONS = "subscription { trainingExecutionLogged { id } }";
const sockets: TestSocket[] = [];
const open = (...args: Parameters<typeof openSocket>) => {
  const socket = openSocket(...args);
  sockets.push(socket);
  return socket;
};

afterEach(async () => {
  await Promise.all(sockets.splice(0).map((socket) => socket.close()));
});

describe("a GraphQL WebSocket", () => {
  it("is closed with 4401 without a token, with a token that does not open a session, or with a non-Bearer value", async () => {
    const ana = await makeUser(t);
    for (const authorization of [null, "not-a-token", { authorization: ana.token }, { authorization: 42 }]) {
      expect(await open(t, authorization).closed, JSON.stringify(authorization)).toBe(4401);
    }
    // Logged out: the token no longer opens a session.
    expect((await t.post("/api/users/logout", { token: ana.token })).status).toBe(200);
    expect(await open(t, ana.token).closed).toBe(4401);
  });

  it("is acknowledged with a valid token, and takes subscriptions only (queries and mutations go over HTTP)", async () => {
    const ana = await makeUser(t);
    const socket = open(t, ana.token);
    await socket.connected;
    const query = socket.subscribe("{ me { id } }");
    await query.ended;
    expect(query.errors).toEqual([[expect.objectContaining({ message: expect.stringContaining("só assinaturas") })]]);
    const invalid = socket.subscribe("subscription { trainingExecutionLogged { nope } }");
    await invalid.ended;
    expect(invalid.errors).toEqual([[expect.objectContaining({ extensions: expect.objectContaining({ code: "GRAPHQL_VALIDATION_FAILED" }) })]]);
    socket.subscribe(FOLLOW_EXECUTIONS);
    await socket.close();
  });

  it("refuses a student the caller may not follow (403 Acesso negado)", async () => {
    const trainer = await makeUser(t, { userType: "PERSONAL" });
    const student = await makeUser(t);
    const socket = open(t, trainer.token);
    const refused = socket.subscribe("subscription ($id: Int) { trainingExecutionLogged(studentId: $id) { id } }", { id: student.id });
    await refused.ended;
    expect(refused.events).toEqual([{ errors: [expect.objectContaining({ message: "Acesso negado", extensions: { code: "FORBIDDEN", status: 403 } })] }]);
  });

  it("refuses a studentId on inviteUpdated, which names no student (a validation error)", async () => {
    const ana = await makeUser(t);
    const socket = open(t, ana.token);
    const invalid = socket.subscribe("subscription { inviteUpdated { id } }");
    const withStudent = socket.subscribe("subscription { inviteUpdated(studentId: 1) { id } }");
    await withStudent.ended;
    expect(withStudent.errors).toEqual([[expect.objectContaining({ extensions: expect.objectContaining({ code: "GRAPHQL_VALIDATION_FAILED" }) })]]);
    invalid.stop();
  });

  it("is closed with 4401 on every instance when its token is revoked on another", async () => {
    const ana = await makeUser(t);
    const here = open(t, ana.token);
    const there = open(other, ana.token);
    await Promise.all([here.connected, there.connected]);
    expect((await other.post("/api/users/logout", { token: ana.token })).status).toBe(200);
    expect(await here.closed).toBe(4401);
    expect(await there.closed).toBe(4401);
  });

  it("is closed with 4401 when its token expires", async () => {
    const ana = await makeUser(t);
    // One second of the token's life left.
    t.clock.set(new Date(decodeJwt(ana.token).payload.exp * 1000 - 1000));
    const socket = open(t, ana.token);
    await socket.connected;
    const started = Date.now();
    expect(await socket.closed).toBe(4401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });

  it("closes a socket whose message passes 64 KiB, and refuses other paths", async () => {
    const ana = await makeUser(t);
    const socket = open(t, ana.token);
    await socket.connected;
    const huge = socket.subscribe(`subscription { trainingExecutionLogged { id ${"id ".repeat(30_000)} } }`);
    expect(await socket.closed).toBe(1009);
    huge.stop();

    const elsewhere = new WebSocket(t.baseUrl.replace(/^http/, "ws") + "/api/users", "graphql-transport-ws");
    elsewhere.on("error", () => undefined);
    const refusal = await new Promise<number>((resolve) => elsewhere.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0)));
    expect(refusal).toBe(404);
    elsewhere.terminate();
  });

  it("closes a socket that sends an oversized frame (1009), an invalid message (4400) or text that is not UTF-8 (1007) with one JSON warning each, printing nothing", async () => {
    const printed: unknown[] = [];
    const spies = [
      ...(["log", "info", "warn", "error", "debug", "trace"] as const).map((method) =>
        vi.spyOn(console, method).mockImplementation((...args) => void printed.push(args)),
      ),
      ...[process.stdout, process.stderr].map((stream) => vi.spyOn(stream, "write").mockImplementation((chunk) => (printed.push(chunk), true))),
    ];
    const closeCodeOf = async (message: string | Buffer) => {
      const socket = new WebSocket(t.baseUrl.replace(/^http/, "ws") + "/graphql", "graphql-transport-ws");
      await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
      socket.send(message, { binary: false });
      return new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
    };
    try {
      expect(await closeCodeOf(`{"type":"connection_init","payload":{"secret-body":"${"x".repeat(70_000)}"}}`)).toBe(1009);
      expect(await closeCodeOf('{"type":"connection_init","secret-body"')).toBe(4400);
      expect(await closeCodeOf('{"type":"no-such-type","secret-body":1}')).toBe(4400);
      // A text frame that is not UTF-8.
      expect(await closeCodeOf(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))).toBe(1007);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(printed).toEqual([]);
    const warnings = t.logLines.filter((line) => line.includes("WebSocket")).map((line) => JSON.parse(line));
    expect(warnings).toEqual([
      expect.objectContaining({ level: 40, wsError: "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH" }),
      expect.objectContaining({ level: 40, closeCode: 4400 }),
      expect.objectContaining({ level: 40, closeCode: 4400 }),
      expect.objectContaining({ level: 40, wsError: "WS_ERR_INVALID_UTF8" }),
    ]);
    const logged = t.logLines.join("");
    expect(logged).not.toContain("secret-body");
    expect(logged).not.toContain("stack");
  });

  it("holds a dashboard's 250 subscriptions on one socket and 500 over a user's sockets, refusing more", async () => {
    const ana = await makeUser(t);
    const [first, second, third] = [open(t, ana.token), open(t, ana.token), open(t, ana.token)];
    await Promise.all([first.connected, second.connected, third.connected]);
    const held = [first, second].flatMap((socket) => Array.from({ length: 250 }, () => socket.subscribe(FOLLOW_EXECUTIONS)));
    const pastSocket = first.subscribe(FOLLOW_EXECUTIONS);
    await pastSocket.ended;
    expect(pastSocket.errors).toEqual([[expect.objectContaining({ message: "No máximo 250 assinaturas por conexão" })]]);
    const pastUser = third.subscribe(FOLLOW_EXECUTIONS);
    await pastUser.ended;
    expect(pastUser.errors).toEqual([[expect.objectContaining({ message: "No máximo 500 assinaturas por usuário" })]]);
    // A subscription ended frees its place: on the same socket, so the server has heard of the end first.
    held.pop()!.stop();
    const again = second.subscribe(FOLLOW_EXECUTIONS);
    const pastAgain = second.subscribe(FOLLOW_EXECUTIONS);
    await pastAgain.ended;
    expect(pastAgain.errors).toEqual([[expect.objectContaining({ message: "No máximo 250 assinaturas por conexão" })]]);
    expect([...held, again].every((subscription) => subscription.errors.length === 0)).toBe(true);
    [...held, again].forEach((subscription) => subscription.stop());
  });

  it("goes away (1001) when its instance shuts down", async () => {
    const ana = await makeUser(t);
    const socket = open(other, ana.token);
    await socket.connected;
    await other.app.sockets.close();
    expect(await socket.closed).toBe(1001);
  });
});
