import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import {
  GraphQLError,
  Kind,
  type GraphQLFormattedError,
  parse,
  specifiedRules,
  validate,
  type ExecutionArgs,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { CloseCode, handleProtocols, makeServer, type Server } from "graphql-ws";
import { WebSocketServer, type WebSocket } from "ws";
import type { Actor, UserActor } from "../platform/auth/actor.js";
import type { Clock } from "../platform/clock.js";
import type { Config } from "../platform/config.js";
import { pastAddressCapError } from "../platform/http/http-server.js";
import type { Logger } from "../platform/logger.js";
import { formatError } from "./format-error.js";
import { complexityProblem, depthLimit } from "./query-limits.js";

/** One client message: a subscribe's query and variables fit well within it (the HTTP side takes 100 KiB bodies). */
const MAX_MESSAGE_BYTES = 64 * 1024;
/**
 * Subscriptions one socket may hold at once: a trainer's dashboard of 100 student cards, each following the student's
 * executions and records, and the page's own. What an event costs does not grow with them (LiveUpdatesService).
 */
const MAX_SUBSCRIPTIONS_PER_SOCKET = 250;
/** Subscriptions one user may hold at once over all its sockets to one instance: two such dashboards. */
const MAX_SUBSCRIPTIONS_PER_USER = 500;
/** Time a client has to send `connection_init`, as graphql-ws advises (its default is 3 s). */
const CONNECTION_INIT_WAIT_MS = 5_000;
/** What a socket may leave unread on the server (events it does not take); past it the socket is closed. */
const MAX_UNSENT_BYTES = 1024 * 1024;
/** Neither a timer Node cannot hold (past 2^31 − 1 ms) nor a busy loop for a token already expired. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A socket is pinged this often, and dropped if it has not answered by the next ping (graphql-ws's own default). */
const KEEP_ALIVE_MS = 12_000;
/** graphql-ws's closes for a client that broke the graphql-transport-ws protocol: worth a warning, unlike 4401/4403. */
const PROTOCOL_VIOLATIONS: ReadonlySet<number> = new Set([
  CloseCode.BadRequest,
  CloseCode.SubprotocolNotAcceptable,
  CloseCode.SubscriberAlreadyExists,
  CloseCode.TooManyInitialisationRequests,
]);

const UNAUTHORIZED = 4401;
const SLOW_CONSUMER = 1013;

/** What each connection holds once authenticated: who, with which token, until when, and its subscriptions. */
interface Session {
  actor: UserActor;
  authorization: string;
  expiry: NodeJS.Timeout;
  /** How many subscriptions the socket holds now (graphql-ws counts one being subscribed). */
  held(): number;
}
interface Connection {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
  session?: Session;
}

export interface GraphqlSockets {
  /** Takes an HTTP upgrade: a WebSocket at /graphql speaking graphql-transport-ws; anything else is refused. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every socket (1001 Going Away) and stops taking new ones. */
  close(): Promise<void>;
}

export interface GraphqlSocketsDeps {
  schema: GraphQLSchema;
  /** Who a bearer `Authorization` value belongs to (throws, or answers anonymous, when it opens no session). */
  authenticate(authorization: string): Promise<Actor>;
  /** Calls `watcher` with the user of every change to sessions, on any instance; returns the unwatch. */
  onSessionsChanged(watcher: (userId: number) => void): () => void;
  config: Config;
  clock: Clock;
  logger: Logger;
  /** The context of one subscription's events, as the HTTP side builds it for a request. */
  contextFor(actor: UserActor, request: IncomingMessage): object;
}

/**
 * GraphQL subscriptions over WebSocket (contract §14.2) with graphql-ws, the reference server of the
 * graphql-transport-ws protocol: a client authenticates in `connection_init` (`{authorization: "Bearer <token>"}`),
 * else the socket closes with 4401; so it does when the token expires, is revoked (logout, refresh, a password reset:
 * the users module's session news, from any instance) or stops opening a session at an event. Queries and mutations
 * stay on HTTP, where idempotency keys, rate limits and answer sizes are enforced. The same depth, complexity and
 * token limits hold as over HTTP, and one message, a socket's and a user's subscriptions and unsent events are bounded.
 */
export function graphqlSockets(deps: GraphqlSocketsDeps): GraphqlSockets {
  const { schema, authenticate, config, clock, logger } = deps;
  const format = formatError(logger);
  /** The authenticated connections, by user. */
  const sessions = new Map<number, Set<Connection>>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  let closing: Promise<void> | undefined;

  const closeUnauthorized = (connection: Connection) => {
    connection.socket.close(UNAUTHORIZED, "Unauthorized");
  };
  /** Whether the connection's token still opens a session; closes it with 4401 when not. */
  const stillAuthenticated = async (connection: Connection): Promise<boolean> => {
    const session = connection.session;
    if (!session) return false;
    const actor = await authenticate(session.authorization).catch(() => null);
    if (actor?.kind === "user") return true;
    closeUnauthorized(connection);
    return false;
  };
  const stopSessionNews = deps.onSessionsChanged((userId) => {
    for (const connection of sessions.get(userId) ?? []) void stillAuthenticated(connection);
  });

  const server = makeServer<Record<string, unknown> | undefined, Connection>({
    schema,
    connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,
    onConnect: async (ctx) => {
      const connection = ctx.extra;
      const sent = ctx.connectionParams?.authorization;
      const authorization = typeof sent === "string" ? sent : "";
      const actor = authorization ? await authenticate(authorization).catch(() => null) : null;
      if (actor?.kind !== "user") {
        closeUnauthorized(connection);
        return false;
      }
      const untilExpiry = Math.min(MAX_TIMER_MS, Math.max(0, actor.tokenExpiresAt.getTime() - clock.now().getTime()));
      const expiry = setTimeout(() => closeUnauthorized(connection), untilExpiry);
      expiry.unref();
      connection.session = { actor, authorization, expiry, held: () => Object.keys(ctx.subscriptions).length };
      const users = sessions.get(actor.id) ?? new Set();
      sessions.set(actor.id, users.add(connection));
      connection.socket.once("close", () => {
        clearTimeout(expiry);
        users.delete(connection);
        if (users.size === 0) sessions.delete(actor.id);
      });
      return true;
    },
    onSubscribe: (ctx, _id, payload): ExecutionArgs | readonly GraphQLError[] => {
      const connection = ctx.extra;
      const session = connection.session!;
      // graphql-ws has already counted this subscription among the socket's own.
      if (session.held() > MAX_SUBSCRIPTIONS_PER_SOCKET) return [refused(`No máximo ${MAX_SUBSCRIPTIONS_PER_SOCKET} assinaturas por conexão`)];
      let heldByUser = 0;
      for (const other of sessions.get(session.actor.id) ?? []) heldByUser += other.session!.held();
      if (heldByUser > MAX_SUBSCRIPTIONS_PER_USER) return [refused(`No máximo ${MAX_SUBSCRIPTIONS_PER_USER} assinaturas por usuário`)];
      let document;
      try {
        document = parse(payload.query, { maxTokens: config.graphqlMaxTokens });
      } catch (error) {
        return [clientError(error instanceof GraphQLError ? error : new GraphQLError("Consulta inválida"), "GRAPHQL_PARSE_FAILED")];
      }
      const problems = validate(schema, document, [...specifiedRules, depthLimit(config.graphqlMaxDepth)]);
      if (problems.length > 0) return problems.map((problem) => clientError(problem, "GRAPHQL_VALIDATION_FAILED"));
      const operation = document.definitions.find(
        (definition): definition is OperationDefinitionNode =>
          definition.kind === Kind.OPERATION_DEFINITION && (payload.operationName == null || definition.name?.value === payload.operationName),
      );
      if (!operation) return [refused("Operação não encontrada")];
      if (operation.operation !== "subscription") return [refused("Pela conexão WebSocket só assinaturas; consultas e mutações vão por HTTP")];
      const tooComplex = complexityProblem(schema, document, operation, payload.variables ?? {}, config.graphqlMaxComplexity);
      if (tooComplex) return [tooComplex];
      return {
        schema,
        document,
        operationName: payload.operationName,
        variableValues: payload.variables,
        contextValue: deps.contextFor(session.actor, connection.request),
      };
    },
    onNext: async (ctx, _id, _payload, _args, result) => {
      const connection = ctx.extra;
      // The token must still open a session for each event; a socket that leaves too much unread is a slow consumer.
      if (connection.socket.bufferedAmount > MAX_UNSENT_BYTES) {
        connection.socket.close(SLOW_CONSUMER, "Too many unread events");
        return;
      }
      if (!(await stillAuthenticated(connection))) return;
      if (!result.errors) return;
      // The HTTP side's error shape (contract §10), as errors graphql-ws can send.
      return { ...result, errors: result.errors.map((error) => asGraphqlError(format(error.toJSON(), error))) };
    },
    onError: (_ctx, _id, _payload, errors) => errors.map((error) => format(error.toJSON(), error)),
  });
  serveOver(wss, server, logger);

  return {
    upgrade(request, socket, head) {
      const pastCap = pastAddressCapError(socket);
      if (pastCap) return refuseUpgrade(socket, "503 Service Unavailable", pastCap.headers, JSON.stringify({ message: pastCap.message, success: false }));
      if (new URL(request.url ?? "/", "http://localhost").pathname !== "/graphql") return refuseUpgrade(socket, "404 Not Found");
      wss.handleUpgrade(request, socket, head, (ws: WebSocket) => wss.emit("connection", ws, request));
    },
    close() {
      closing ??= (async () => {
        stopSessionNews();
        for (const client of wss.clients) client.close(1001, "Going away");
        await new Promise<void>((resolve) => wss.close(() => resolve()));
      })();
      return closing;
    },
  };
}

/**
 * Runs the graphql-ws `server` on the sockets `wss` accepts, as graphql-ws's own `useServer` does, except that what a
 * client gets wrong is one warning in the service's log (no stack, nothing of what it sent) instead of a stack trace
 * printed to stderr. ws closes a socket whose frame it refuses itself (1009 past maxPayload, 1007 text that is not
 * UTF-8, 1002 a broken frame) and graphql-ws one whose message is not graphql-transport-ws (4400 and its kin).
 */
function serveOver(wss: WebSocketServer, server: Server<Connection>, logger: Logger): void {
  wss.options.handleProtocols = handleProtocols;
  wss.on("connection", (socket: WebSocket, request: IncomingMessage) => {
    socket.on("error", (error: Error & { code?: string }) => {
      logger.warn({ wsError: error.code, reason: error.message }, "GraphQL WebSocket closed: a frame was refused");
    });
    let answeredPing = true;
    const keepAlive = setInterval(() => {
      if (!answeredPing) return socket.terminate();
      answeredPing = false;
      socket.ping();
    }, KEEP_ALIVE_MS);
    socket.on("pong", () => (answeredPing = true));
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (error) => (error ? reject(error) : resolve()));
          }),
        close: (code, reason) => {
          if (code !== undefined && PROTOCOL_VIOLATIONS.has(code))
            logger.warn({ closeCode: code, reason }, "GraphQL WebSocket closed: the client broke the protocol");
          socket.close(code, reason);
        },
        onMessage: (handle) =>
          socket.on("message", async (data) => {
            try {
              await handle(String(data));
            } catch (error) {
              logger.error({ err: error }, "GraphQL WebSocket message failed");
              socket.close(CloseCode.InternalServerError, "Internal server error");
            }
          }),
      },
      { socket, request },
    );
    socket.once("close", (code, reason) => {
      clearInterval(keepAlive);
      void closed(code, String(reason));
    });
  });
}

/** Answers an upgrade request over plain HTTP instead, and closes the connection. */
function refuseUpgrade(socket: Duplex, status: string, headers: Record<string, string> = {}, json?: string): void {
  const body = json ?? "";
  const lines = [`HTTP/1.1 ${status}`, ...Object.entries({ ...headers, Connection: "close" }).map(([name, value]) => `${name}: ${value}`)];
  if (json !== undefined) lines.push("Content-Type: application/json; charset=utf-8");
  lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`, () => socket.destroy());
}

const asGraphqlError = (formatted: GraphQLFormattedError) => new GraphQLError(formatted.message, { path: formatted.path, extensions: formatted.extensions });

/** A client's mistake in the code Apollo gives it over HTTP (format-error passes those through as 400). */
const clientError = (error: GraphQLError, code: string) =>
  new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: { code } });

const refused = (message: string) => clientError(new GraphQLError(message), "GRAPHQL_VALIDATION_FAILED");
