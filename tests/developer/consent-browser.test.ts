import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { CHROMIUM, hasChromium, launchChromium } from "../helpers/chromium.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeTrainer, type MadeUser } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { authorizationUrl, ISSUER, pkcePair, REDIRECT_URI, registerApp, tokenRequest, type RegisteredApp } from "./oauth-client.js";

// Contract §18.1 in a real browser: a user logs in on the service's page, sees the consent page name the app and its
// scopes, decides, and lands on the app's redirect URI. Checked in Debian's Chromium (.ci/run installs it), whose every
// request off this machine's loopback is refused here.
const t = useTestApp({ PUBLIC_BASE_URL: ISSUER });

/** The app's side: its redirect URI's page, on a port of the test's own (nothing connects to port 9). */
const callbacks: string[] = [];
const callbackServer = http.createServer((req, res) => {
  callbacks.push(req.url ?? "");
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>app</title>ok");
});
beforeAll(() => new Promise<void>((resolve) => callbackServer.listen(0, "127.0.0.1", resolve)));
afterAll(() => new Promise<void>((resolve) => callbackServer.close(() => resolve())));
beforeEach(() => {
  callbacks.length = 0;
});

let browser: Browser | undefined;
// After the app's and the callback page's beforeAll: their addresses are known. The issuer (http://fitness.test names
// no machine) resolves to the app, so the browser visits the issuer itself (its address bar, its redirects and its
// cookies are the issuer's); the redirect URI's address is the callback page's.
beforeAll(async () => {
  const callbackHost = `127.0.0.1:${(callbackServer.address() as AddressInfo).port}`;
  browser = await launchChromium([
    `--host-resolver-rules=MAP ${new URL(ISSUER).hostname}:80 ${new URL(t.baseUrl).host}, MAP ${new URL(REDIRECT_URI).host} ${callbackHost}`,
    // Port 9 (discard) is one Chromium refuses to navigate to; it is the callback page's here.
    `--explicitly-allowed-ports=${new URL(REDIRECT_URI).port}`,
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** The issuer's pages, or the app's redirect URI: every request the browser may make. */
const allowed = (url: string) => url.startsWith(`${ISSUER}/`) || url.startsWith(`${REDIRECT_URI}?`);

/**
 * Opens the authorization request in a fresh browser context and logs `user` in on the login page; answers on the
 * consent page. Every request the pages make (redirects included) is recorded in `requested`; any other than the
 * issuer's and the redirect URI's is refused.
 */
async function loginThenConsent(app: RegisteredApp, user: Pick<MadeUser, "email" | "password">, challenge: string) {
  const context = await browser!.newContext();
  const requested: string[] = [];
  context.on("request", (request) => requested.push(request.url()));
  // Playwright routes a request, not the redirects it is answered with: those are recorded above.
  await context.route("**/*", (route) => (allowed(route.request().url()) ? route.continue() : route.abort()));
  const page = await context.newPage();
  const failures: string[] = [];
  page.on("pageerror", (error) => failures.push(error.message));

  await page.goto(`${ISSUER}${authorizationUrl(app, "profile:read activity:read offline_access", challenge, { prompt: "consent" })}`);
  // The login page: the issuer's, in Portuguese, asking e-mail and password.
  const loginUrl = page.url();
  expect(loginUrl.startsWith(`${ISSUER}/oauth/interaction/`)).toBe(true);
  expect(await page.locator("html").getAttribute("lang")).toBe("pt-BR");
  expect(await page.locator("body").innerText()).toContain("Planilha do Treinador");
  await page.locator('form input[name="email"]').fill(user.email);
  await page.locator('form input[name="password"]').fill(user.password);
  await Promise.all([
    page.waitForURL((url) => url.href !== loginUrl && url.href.startsWith(`${ISSUER}/oauth/interaction/`)),
    page.locator('form button[type="submit"]').click(),
  ]);
  return { context, page, requested, failures };
}

/** Clicks the consent page's `decision` button of that value; answers the URL the browser lands on. */
async function decide(page: Page, decision: "approve" | "deny"): Promise<URL> {
  await Promise.all([page.waitForURL(`${REDIRECT_URI}?**`), page.locator(`form button[name="decision"][value="${decision}"]`).click()]);
  expect(await page.locator("body").innerText()).toBe("ok");
  return new URL(page.url());
}

describe("the authorization pages in a browser (contract §18.1)", () => {
  it.skipIf(!hasChromium)(
    "logs in, sees the consent page name the app and its scopes, approves, and lands on the redirect with a code",
    async () => {
      const owner = await makeTrainer(t);
      const user = await makeTrainer(t);
      const app = await registerApp(t, owner);
      const { verifier, challenge } = pkcePair();
      const { context, page, requested, failures } = await loginThenConsent(app, user, challenge);

      // The consent page: the app's name and each scope in words; its form carries a CSRF token.
      expect(await page.locator("html").getAttribute("lang")).toBe("pt-BR");
      const text = await page.locator("body").innerText();
      expect(text).toContain("Planilha do Treinador");
      expect(text).toContain("ver seu perfil");
      expect(text).toContain("ver execuções, estatísticas, progresso, recordes e adesão");
      expect(await page.locator('form input[type="hidden"][name="csrf"]').count()).toBe(1);

      const landed = await decide(page, "approve");
      expect(`${landed.origin}${landed.pathname}`).toBe(REDIRECT_URI);
      expect(landed.searchParams.get("state")).toBe("estado-123");
      expect(landed.searchParams.get("error")).toBeNull();
      const code = landed.searchParams.get("code");
      expect(code).toMatch(/^\S+$/);
      expect(callbacks).toEqual([`${landed.pathname}${landed.search}`]);

      // The app trades the code for a token that reads the user's profile.
      const tokens = await tokenRequest(t, app, { grant_type: "authorization_code", code: code!, redirect_uri: REDIRECT_URI, code_verifier: verifier });
      expect(tokens.status).toBe(200);
      const profile = await t.get("/api/users/profile", { token: tokens.body.access_token });
      expect(profile.status).toBe(200);
      expect(profile.body.id).toBe(user.id);
      expect(profile.body.email).toBe(user.email);

      // No asset from elsewhere: every request was the issuer's (the app) or the final redirect to the app.
      expect(requested.filter((url) => !allowed(url))).toEqual([]);
      expect(requested.filter((url) => url.startsWith(`${REDIRECT_URI}?`))).toEqual([landed.href]);
      expect(failures).toEqual([]);
      await context.close();
    },
    60_000,
  );

  it.skipIf(!hasChromium)(
    "denied on the consent page, lands on the redirect with access_denied",
    async () => {
      const owner = await makeTrainer(t);
      const user = await makeTrainer(t);
      const app = await registerApp(t, owner);
      const { challenge } = pkcePair();
      const { context, page, requested, failures } = await loginThenConsent(app, user, challenge);
      expect(await page.locator("body").innerText()).toContain("ver seu perfil");

      const landed = await decide(page, "deny");
      expect(`${landed.origin}${landed.pathname}`).toBe(REDIRECT_URI);
      expect(landed.searchParams.get("error")).toBe("access_denied");
      expect(landed.searchParams.get("state")).toBe("estado-123");
      expect(landed.searchParams.get("code")).toBeNull();
      expect(callbacks).toEqual([`${landed.pathname}${landed.search}`]);

      expect(requested.filter((url) => !allowed(url))).toEqual([]);
      expect(failures).toEqual([]);
      await context.close();
    },
    60_000,
  );
});

if (!hasChromium) console.warn(`tests/developer/consent-browser.test.ts: no Chromium at ${CHROMIUM} (apt-get install chromium): the browser check is skipped`);
