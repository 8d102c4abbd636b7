import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp();

describe("REST documentation", () => {
  it("serves an OpenAPI 3.1 document listing every users path with its input schema", async () => {
    const res = await t.get("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.servers).toEqual([expect.objectContaining({ url: `${t.baseUrl}/api`, "x-internal": false })]);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        "/users/register",
        "/users/login",
        "/users/firebase-login",
        "/users/refresh-token",
        "/users/logout",
        "/users/forgot-password",
        "/users/reset-password",
        "/users/confirm-email",
        "/users/profile",
        "/users/{id}",
        "/users/{userId}/update-profile-photo",
      ]),
    );
    const register = res.body.paths["/users/register"].post;
    const schema = register.requestBody.content["application/json"].schema;
    expect(schema.required).toEqual(expect.arrayContaining(["name", "email", "password", "userType", "requestLocation", "confirmed"]));
    expect(schema.properties.userType.$ref).toBe("#/components/schemas/UserType");
    expect(res.body.components.schemas.UserType).toMatchObject({
      enum: ["ALUNO", "PERSONAL"],
      "x-enumDescriptions": { ALUNO: expect.any(String), PERSONAL: expect.any(String) },
    });
    expect(Object.keys(register.responses)).toEqual(expect.arrayContaining(["201", "400", "409", "429"]));
    expect(res.body.paths["/users/profile"].put.responses["401"]).toBeDefined();
    expect(res.body.paths["/users/{userId}/update-profile-photo"].post.requestBody.content).toHaveProperty("multipart/form-data");
  });

  it("documents Idempotency-Key on every write but the payment webhooks, with its 409 and 422 and the replay header", async () => {
    const res = await t.get("/api/openapi.json");
    expect(res.body.components.parameters.IdempotencyKey).toMatchObject({ name: "Idempotency-Key", in: "header", required: false });
    const webhooks = ["/webhooks/pix/payment", "/payments/webhook", "/webhooks/card"];
    let writes = 0;
    for (const [path, item] of Object.entries(res.body.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const refs = ((operation.parameters ?? []) as { $ref?: string }[]).map((parameter) => parameter.$ref);
        const keyed = method !== "get" && !webhooks.includes(path);
        expect(refs.includes("#/components/parameters/IdempotencyKey"), `${method} ${path}`).toBe(keyed);
        if (!keyed) continue;
        writes += 1;
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(["400", "409", "422"]));
        const success = Object.keys(operation.responses).find((status) => status.startsWith("2"))!;
        expect(operation.responses[success].headers["Idempotent-Replayed"]).toEqual({ $ref: "#/components/headers/IdempotentReplayed" });
      }
    }
    expect(writes).toBeGreaterThan(30);
    expect(res.body.paths["/exercises/{id}/execution"].post.responses["200"].description).toContain("clientId");
  });

  it("lets answers grow (no object closed to other fields) and lists each listing's sort values", async () => {
    const { body } = await t.get("/api/openapi.json");
    const closedObjects: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (node === null || typeof node !== "object") return;
      if ((node as Record<string, unknown>).additionalProperties === false) closedObjects.push(at);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    walk(body, "#");
    expect(closedObjects).toEqual([]);
    const sort = (body.paths["/exercises"].get.parameters as { name: string; schema: { items: { enum: string[] } } }[]).find((p) => p.name === "sort")!;
    expect(sort.schema.items.enum).toEqual(expect.arrayContaining(["name", "name,asc", "name,desc", "createdAt,desc"]));
  });

  it("serves the interactive docs page with its assets from the service itself", async () => {
    const page = await t.get("/api/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.text).toContain("/api/docs/assets/swagger-ui-bundle.js");
    const bundle = await t.get("/api/docs/assets/swagger-ui-bundle.js");
    expect(bundle.status).toBe(200);
    expect(bundle.text.length).toBeGreaterThan(100_000);
    const init = await t.get("/api/docs/init.js");
    expect(init.text).toContain("/api/openapi.json");
  });
});
