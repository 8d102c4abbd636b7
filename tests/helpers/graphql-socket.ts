import { createClient, type Client, type FormattedExecutionResult } from "graphql-ws";
import { WebSocket } from "ws";
import type { TestApp } from "./test-app.js";

/** A graphql-transport-ws client of `app` (no retries: a test sees every close), with how its socket ended. */
export interface TestSocket {
  client: Client;
  /** Resolves once the server acknowledged `connection_init`. */
  connected: Promise<void>;
  /** Resolves with the close code once the socket closes. */
  closed: Promise<number>;
  /** Subscribes; every `next` payload lands in `events`, errors in `errors`. */
  subscribe(query: string, variables?: Record<string, unknown>): Subscription;
  close(): Promise<void>;
}

export interface Subscription {
  events: FormattedExecutionResult<Record<string, unknown>, unknown>[];
  errors: unknown[];
  /** Resolves once `count` events arrived. */
  received(count: number, timeoutMs?: number): Promise<FormattedExecutionResult<Record<string, unknown>, unknown>[]>;
  /** Resolves once the server ended the subscription (complete or error). */
  ended: Promise<void>;
  stop(): void;
}

export function openSocket(app: TestApp, authorization: string | null | Record<string, unknown>): TestSocket {
  let closedWith: (code: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => (closedWith = resolve));
  let acknowledged: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => (acknowledged = resolve));
  const client = createClient({
    url: app.baseUrl.replace(/^http/, "ws") + "/graphql",
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    connectionParams: authorization === null ? undefined : typeof authorization === "string" ? { authorization: `Bearer ${authorization}` } : authorization,
    on: { connected: () => acknowledged(), closed: (event) => closedWith((event as { code: number }).code) },
    onNonLazyError: () => undefined,
  });
  return {
    client,
    connected,
    closed,
    subscribe(query, variables) {
      const events: FormattedExecutionResult<Record<string, unknown>, unknown>[] = [];
      const errors: unknown[] = [];
      const waiters: (() => void)[] = [];
      let end: () => void = () => undefined;
      const ended = new Promise<void>((resolve) => (end = resolve));
      const stop = client.subscribe(
        { query, variables },
        {
          next: (result) => {
            events.push(result);
            waiters.forEach((wake) => wake());
          },
          error: (error) => {
            errors.push(error);
            end();
          },
          complete: () => end(),
        },
      );
      return {
        events,
        errors,
        ended,
        stop,
        received: (count, timeoutMs = 10_000) =>
          new Promise((resolve, reject) => {
            const check = () => events.length >= count && resolve(events.slice(0, count));
            const timer = setTimeout(() => reject(new Error(`${events.length} of ${count} events after ${timeoutMs} ms`)), timeoutMs);
            waiters.push(() => {
              check();
              if (events.length >= count) clearTimeout(timer);
            });
            check();
          }),
      };
    },
    close: () => client.dispose() as Promise<void>,
  };
}
