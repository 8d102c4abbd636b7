import type { ErrorRequestHandler, Response } from "express";
import { escapeHtml } from "../src/platform/html.js";
import type { Logger } from "../src/platform/logger.js";
import { asAppError } from "./errors.js";

/*
 * The service's own HTML pages (the e-mail links' pages, the authorization server's login and consent): Portuguese,
 * inline CSS, no script and no asset from elsewhere, so they work offline.
 */

const STYLE =
  "body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}" +
  "label{display:block;margin:1rem 0 .25rem}input{width:100%;padding:.5rem;box-sizing:border-box}" +
  "button{margin:1rem .5rem 0 0;padding:.5rem 1rem}.problem{color:#a00}";

/** `formActionSelf`: forms post back to this service only (off where a form's answer redirects to an app). */
export function sendPage(res: Response, status: number, title: string, body: string, { formActionSelf = true } = {}): void {
  res
    .status(status)
    .type("html")
    // Nothing but this page's own inline style runs or loads.
    .setHeader(
      "Content-Security-Policy",
      `default-src 'none'; style-src 'unsafe-inline';${formActionSelf ? " form-action 'self';" : ""} frame-ancestors 'none'`,
    )
    .setHeader("Cache-Control", "no-store")
    .setHeader("Referrer-Policy", "no-referrer")
    .send(
      `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
        `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    );
}

export const problemsOf = (message: string, errors: { message: string }[]) =>
  `<p class="problem">${escapeHtml(errors.map((e) => e.message).join(" ") || message)}</p>`;

/** An AppError (a bad or used token, wrong credentials, a closed invite) is a page with its status; a bug, a bare 500 page. */
export function pageErrors(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const known = asAppError(error);
    if (known) {
      for (const [name, value] of Object.entries(known.headers ?? {})) res.setHeader(name, value);
      sendPage(res, known.status, "Não foi possível concluir", problemsOf(known.message, known.errors ?? []));
      return;
    }
    // The path only: the query string carries the link's token.
    logger.error({ err: error, method: req.method, url: req.originalUrl.split("?")[0] }, "unhandled error");
    sendPage(res, 500, "Erro", "<p>Algo deu errado do nosso lado. Tente novamente mais tarde.</p>");
  };
}
