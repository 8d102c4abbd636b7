import type { Browser } from "playwright-core";
import { CHROMIUM, hasChromium, launchChromium } from "../helpers/chromium.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeUser } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";

// Contract §16: GET /graphql from a browser serves a GraphQL IDE that works without internet access. Checked in
// Debian's Chromium (.ci/run installs it), whose every request off this machine's loopback is refused here.
const t = useTestApp();

let browser: Browser | undefined;
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe("the GraphQL IDE at GET /graphql", () => {
  it("answers a browser's page load with the IDE page, and GraphQL clients as before", async () => {
    const page = await t.get("/graphql", { headers: { accept: "text/html,application/xhtml+xml" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.text).toContain("/graphql/ide/");
    expect(page.text).not.toMatch(/https?:\/\/(?!localhost)[a-z0-9.-]+\.(com|net|org|io)\//i);
    const operation = await t.get("/graphql?query=%7B__typename%7D", { headers: { accept: "application/json" } });
    expect(operation.body).toEqual({ data: { __typename: "Query" } });
  });

  it.skipIf(!hasChromium)(
    "runs the operation typed in its editor in a real browser, no request leaving the machine",
    async () => {
      const ana = await makeUser(t, { name: "Ana IDE" });
      const context = await browser!.newContext();
      const offMachine: string[] = [];
      await context.route("**/*", (route) => {
        const url = new URL(route.request().url());
        if (url.hostname !== "127.0.0.1" && url.hostname !== "localhost") {
          offMachine.push(url.href);
          return route.abort();
        }
        return route.continue();
      });
      const page = await context.newPage();
      const failures: string[] = [];
      page.on("pageerror", (error) => failures.push(error.message));
      await page.goto(`${t.baseUrl}/graphql`);
      // The editors are there once the IDE has booted from its own assets.
      await page.locator(".graphiql-container").waitFor({ timeout: 30_000 });
      // Run the operation typed in its editor, as a user would, and read the answer pane.
      await page.locator(".graphiql-query-editor .monaco-editor").click();
      await page.keyboard.press("ControlOrMeta+A");
      await page.keyboard.press("Delete");
      // Typed key by key: the editor closes the brace itself.
      await page.keyboard.type("{ exerciseCategories");
      await page.locator(".graphiql-execute-button").click();
      await expect
        .poll(async () => (await page.locator(".graphiql-response").innerText()).replace(/\s+/g, ""), { timeout: 15_000 })
        .toContain('"exerciseCategories":[');
      // And as a signed-in user, with the same origin's endpoint.
      const answer = await page.evaluate(
        async ({ token }) => {
          const response = await fetch("/graphql", {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
            body: JSON.stringify({ query: "{ me { name } }" }),
          });
          return response.json();
        },
        { token: ana.token },
      );
      expect(answer).toEqual({ data: { me: { name: "Ana IDE" } } });
      expect(offMachine).toEqual([]);
      expect(failures).toEqual([]);
      await context.close();
    },
    60_000,
  );
});

if (!hasChromium) console.warn(`tests/graphql/ide.test.ts: no Chromium at ${CHROMIUM} (apt-get install chromium): the browser check is skipped`);
