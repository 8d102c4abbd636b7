import { createHash, randomBytes } from "node:crypto";
import type { MadeUser } from "../factories/users.js";
import type { TestApp } from "../helpers/test-app.js";

export const ISSUER = "http://fitness.test";
export const REDIRECT_URI = "http://127.0.0.1:9/callback";

/** A browser, as far as the authorization flow needs one: cookies kept per name, redirects seen one by one. */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly app: TestApp) {}

  /** A request to the app (an issuer URL is taken as the app's own), without following redirects. */
  async fetch(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<{ status: number; location: string; html: string }> {
    const target = url.startsWith(ISSUER) ? this.app.baseUrl + url.slice(ISSUER.length) : url.startsWith("/") ? this.app.baseUrl + url : url;
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ") };
    if (init.form) headers["content-type"] = "application/x-www-form-urlencoded";
    const response = await fetch(target, {
      method: init.method ?? "GET",
      headers,
      body: init.form ? new URLSearchParams(init.form) : undefined,
      redirect: "manual",
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return { status: response.status, location: response.headers.get("location") ?? "", html: await response.text() };
  }

  /** Follows redirects within the app until one leaves it (to the app's redirect URI) or a page answers. */
  async follow(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    let answer = await this.fetch(url, init);
    while (answer.status >= 300 && answer.status < 400 && !answer.location.startsWith(REDIRECT_URI)) answer = await this.fetch(answer.location);
    return answer;
  }
}

/** The value of a page's hidden input, and its form's action. */
export function formOf(html: string): { action: string; csrf: string } {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!action || !csrf) throw new Error(`no form in ${html}`);
  return { action, csrf };
}

export function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export interface RegisteredApp {
  id: number;
  clientId: string;
  clientSecret?: string;
}

export async function registerApp(t: TestApp, owner: Pick<MadeUser, "token">, body: Record<string, unknown> = {}): Promise<RegisteredApp> {
  const res = await t.post("/api/developer/apps", {
    token: owner.token,
    body: {
      name: "Planilha do Treinador",
      redirectUris: [REDIRECT_URI],
      scopes: ["profile:read", "activity:read", "offline_access"],
      confidential: true,
      ...body,
    },
  });
  if (res.status !== 201) throw new Error(`app not registered: ${res.status} ${res.text}`);
  return res.body;
}

/** The authorization request's URL (code flow, PKCE S256). */
export function authorizationUrl(app: RegisteredApp, scope: string, challenge: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    response_type: "code",
    client_id: app.clientId,
    redirect_uri: REDIRECT_URI,
    scope,
    state: "estado-123",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  });
  return `/oauth/auth?${params}`;
}

/** Logs `user` in and approves (or denies) on the consent page; answers the redirect to the app. */
export async function authorize(
  browser: Browser,
  app: RegisteredApp,
  user: Pick<MadeUser, "email" | "password">,
  scope: string,
  challenge: string,
  decision = "approve",
) {
  const loginPage = await browser.follow(authorizationUrl(app, scope, challenge, { prompt: "consent" }));
  const login = formOf(loginPage.html);
  const consentPage = await browser.follow(login.action, { method: "POST", form: { email: user.email, password: user.password, csrf: login.csrf } });
  const consent = formOf(consentPage.html);
  const redirect = await browser.follow(consent.action, { method: "POST", form: { decision, csrf: consent.csrf } });
  return { loginPage, consentPage, redirect: new URL(redirect.location) };
}

/** A POST to the token endpoint, as the app (Basic authentication when confidential). */
export async function tokenRequest(t: TestApp, app: RegisteredApp, form: Record<string, string>) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  const body = new URLSearchParams(form);
  if (app.clientSecret)
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`).toString("base64")}`;
  else body.set("client_id", app.clientId);
  const response = await fetch(`${t.baseUrl}/oauth/token`, { method: "POST", headers, body });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** An app's tokens for `user` through the whole flow: consent in a browser of its own, then the code traded. */
export async function appTokens(t: TestApp, app: RegisteredApp, user: Pick<MadeUser, "email" | "password">, scope = "profile:read") {
  const { verifier, challenge } = pkcePair();
  const { redirect } = await authorize(new Browser(t), app, user, scope, challenge);
  const tokens = await tokenRequest(t, app, {
    grant_type: "authorization_code",
    code: redirect.searchParams.get("code")!,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
  });
  if (tokens.status !== 200) throw new Error(JSON.stringify(tokens.body));
  return tokens.body as { access_token: string; refresh_token?: string; scope: string };
}
