import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import type { RequestHandler } from "express";

/** The name traces carry (`service.name`), and of this code's tracer. */
export const SERVICE_NAME = "fitness-training-service";

/** The tracer of the service's own spans; a no-op until `startTracing` registers a provider. */
export const tracer = () => trace.getTracer(SERVICE_NAME);

let tracingOn = false;
/** Whether spans are recorded and exported: the hot paths skip their bookkeeping when not. */
export const tracingEnabled = () => tracingOn;

export interface Tracing {
  /** Exports what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry traces over OTLP/HTTP to `endpoint` (contract §16, OTEL_EXPORTER_OTLP_ENDPOINT): the SDK's provider,
 * its AsyncLocalStorage context (a span follows its request through every await) and W3C trace context, registered for
 * the whole process. Spans are batched and sent off the request path. Without an endpoint nothing is registered and
 * the API stays a no-op, and the SDK and its exporter (protobufjs among them) are not even loaded: only the API is.
 */
export async function startTracing(endpoint: string | undefined): Promise<Tracing> {
  if (!endpoint) return { shutdown: async () => undefined };
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, { BatchSpanProcessor, NodeTracerProvider }] = await Promise.all([
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace-node"),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": SERVICE_NAME }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, "")}/v1/traces` }), { scheduledDelayMillis: 500 })],
  });
  provider.register();
  tracingOn = true;
  return {
    async shutdown() {
      tracingOn = false;
      await provider.shutdown();
      // Unregistered, so that a later app of this process (tests) starts afresh.
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/**
 * A server span per HTTP request, continuing the caller's trace (`traceparent`), named by its route once known, with
 * its status; every span made while serving it (GraphQL, SQL) is its child.
 */
export function httpSpans(): RequestHandler {
  return (req, res, next) => {
    if (!tracingOn) return next();
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer().startSpan(
      `${req.method}`,
      { kind: SpanKind.SERVER, attributes: { "http.request.method": req.method, "url.path": req.path, "server.address": req.hostname } },
      parent,
    );
    res.once("close", () => {
      const route = req.route?.path as string | undefined;
      // A route matched by path pattern, or the one a mounted handler names (GraphQL: `res.locals.route`).
      const full = route ? `${req.baseUrl}${route === "/" ? "" : route}` : (res.locals.route as string | undefined);
      if (full) {
        span.updateName(`${req.method} ${full}`);
        span.setAttribute("http.route", full);
      }
      span.setAttribute("http.response.status_code", res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}

/**
 * Runs `run` inside a span named `name` (a child of the current one), ended when its promise settles; a rejection
 * marks it failed. `attributes` must carry no secret (SQL text with placeholders, never the bound values).
 */
export function inSpan<T>(name: string, attributes: Record<string, string | number>, run: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await run(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A span's attributes for one SQL statement: its text (placeholders only) and the operation it starts with. */
export function statementAttributes(text: string): Record<string, string> {
  const operation = /^\s*(?:\/\*.*?\*\/\s*)?(\w+)/s.exec(text)?.[1]?.toUpperCase() ?? "SQL";
  return { "db.system.name": "postgresql", "db.operation.name": operation, "db.query.text": text.length > 2000 ? `${text.slice(0, 2000)}…` : text };
}
