import { pino, type Logger } from "pino";
import { currentRequestId } from "./http/request-id.js";

export type { Logger };

/** Paths never written to the logs: credentials, tokens and card data. */
const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-webhook-secret"]',
  'req.headers["card-signature"]',
  'req.headers["stripe-signature"]',
  "*.password",
  "*.token",
  "*.firebaseToken",
  "*.cardNumber",
  "*.cardCvv",
  "*.cvv",
  "*.jwtSecret",
  "*.secretAccessKey",
  "password",
  "token",
  "cardNumber",
  "cardCvv",
];

/**
 * Errors are serialized without the SQL parameters a failed query carries (Drizzle puts them in both
 * `params` and the message), since those may hold password hashes or tokens.
 */
function serializeError(error: unknown) {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  return scrubQueryParams(serialized);
}

function scrubQueryParams(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...value };
  delete out.params;
  for (const key of ["message", "stack"]) {
    if (typeof out[key] === "string") out[key] = (out[key] as string).replace(/\nparams: [^\n]*/g, "\nparams: [redacted]");
  }
  if (out.cause && typeof out.cause === "object") out.cause = scrubQueryParams(out.cause as Record<string, unknown>);
  return out;
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      serializers: { err: serializeError },
      // A line written while serving a request names it (X-Request-Id).
      mixin: () => {
        const requestId = currentRequestId();
        return requestId === undefined ? {} : { requestId };
      },
    },
    destination,
  );
}
