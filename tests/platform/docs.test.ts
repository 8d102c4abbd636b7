import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp();

describe("REST documentation", () => {
  it("serves an OpenAPI 3.1 document listing every users path with its input schema", async () => {
    const res = await t.get("/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.servers).toEqual([{ url: `${t.baseUrl}/api` }]);
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
    expect(schema.properties.userType.enum).toEqual(["ALUNO", "PERSONAL"]);
    expect(Object.keys(register.responses)).toEqual(expect.arrayContaining(["201", "400", "409", "429"]));
    expect(res.body.paths["/users/profile"].put.responses["401"]).toBeDefined();
    expect(res.body.paths["/users/{userId}/update-profile-photo"].post.requestBody.content).toHaveProperty("multipart/form-data");
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
