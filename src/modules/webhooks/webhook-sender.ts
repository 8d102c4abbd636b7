import http from "node:http";
import https from "node:https";
import { ADDRESS_REFUSED, guardedLookup, isRefusedLiteral, type UrlPolicy } from "./webhook-address.js";

/** A delivery attempt ends within this (contract §14.1: a 2xx within 10 s is success). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** At most this much of an answer is read (to describe a failure); the rest is dropped with the connection. */
const MAX_ANSWER_BYTES = 64 * 1024;
const ERROR_TEXT_CHARS = 500;

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface AttemptOutcome {
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
}

/**
 * POSTs one delivery. Bounded whatever the receiver does: one connection of its own (no pool), to an address checked
 * by the policy; no redirect followed (a 3xx is a failure); the whole attempt aborted at ATTEMPT_TIMEOUT_MS; of the
 * answer, nothing read after a 2xx and at most MAX_ANSWER_BYTES otherwise. Never throws.
 */
export function sendWebhook(request: WebhookRequest, policy: UrlPolicy): Promise<AttemptOutcome> {
  const url = new URL(request.url);
  if (policy.refusePrivateAddresses && isRefusedLiteral(url)) return Promise.resolve({ succeeded: false, statusCode: null, error: ADDRESS_REFUSED });
  if (policy.httpsOnly && url.protocol !== "https:") return Promise.resolve({ succeeded: false, statusCode: null, error: "A URL deve usar https" });

  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      outgoing.destroy();
      resolve(outcome);
    };
    const client = url.protocol === "https:" ? https : http;
    const outgoing = client.request(url, {
      method: "POST",
      agent: false,
      headers: {
        ...request.headers,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(request.body).toString(),
        "user-agent": "fitness-webhooks/1",
      },
      ...(policy.refusePrivateAddresses ? { lookup: guardedLookup } : {}),
    });
    const deadline = setTimeout(
      () => finish({ succeeded: false, statusCode: null, error: `Sem resposta em ${ATTEMPT_TIMEOUT_MS / 1000} s` }),
      ATTEMPT_TIMEOUT_MS,
    );
    outgoing.on("error", (error) => finish({ succeeded: false, statusCode: null, error: error.message.slice(0, ERROR_TEXT_CHARS) }));
    outgoing.on("response", (answer) => {
      const statusCode = answer.statusCode ?? 0;
      if (statusCode >= 200 && statusCode < 300) {
        finish({ succeeded: true, statusCode, error: null });
        return;
      }
      const kept: Buffer[] = [];
      let size = 0;
      const failed = () => {
        const text = Buffer.concat(kept).toString("utf8").slice(0, ERROR_TEXT_CHARS);
        const what = statusCode >= 300 && statusCode < 400 ? `Redirecionamento não seguido (HTTP ${statusCode})` : `HTTP ${statusCode}`;
        finish({ succeeded: false, statusCode, error: text ? `${what}: ${text}` : what });
      };
      answer.on("data", (chunk: Buffer) => {
        if (size < MAX_ANSWER_BYTES) kept.push(chunk.subarray(0, MAX_ANSWER_BYTES - size));
        size += chunk.length;
        if (size >= MAX_ANSWER_BYTES) failed();
      });
      answer.on("end", failed);
      answer.on("error", failed);
    });
    outgoing.end(request.body);
  });
}
