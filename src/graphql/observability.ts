import type { ApolloServerPlugin } from "@apollo/server";
import { context, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import type { GraphQLResolveInfo } from "graphql";
import { Histogram, type Registry } from "prom-client";
import { tracer, tracingEnabled } from "../platform/tracing.js";

/** Resolver spans one operation may make: a page of a hundred items' fields must not make a trace of thousands. */
const MAX_FIELD_SPANS = 200;

/**
 * What GraphQL operations report (contract §16): a Prometheus histogram of their durations by type, first root field
 * and outcome (labels from the schema's names, never from the client's operation names, so their number is bounded),
 * and, with tracing on, a span per operation (a child of the HTTP request's) with a span per resolver that is not a
 * plain property read.
 */
export function graphqlObservability(metrics: Registry): ApolloServerPlugin {
  const durations = new Histogram({
    name: "graphql_operation_duration_seconds",
    help: "GraphQL operations by type, first root field and outcome",
    labelNames: ["type", "root_field", "outcome"],
    registers: [metrics],
  });
  return {
    async requestDidStart() {
      const stop = durations.startTimer();
      const labels = { type: "unknown", root_field: "unknown" };
      const span = tracingEnabled() ? tracer().startSpan("graphql") : undefined;
      let fieldSpans = 0;
      return {
        async didResolveOperation({ operation }) {
          if (!operation) return;
          labels.type = operation.operation;
          const first = operation.selectionSet.selections[0];
          labels.root_field = first?.kind === "Field" ? first.name.value : "fragment";
          span?.updateName(`${labels.type} ${labels.root_field}`);
          span?.setAttributes({ "graphql.operation.type": labels.type });
        },
        async executionDidStart() {
          if (!span) return;
          const parent = trace.setSpan(context.active(), span);
          return {
            willResolveField({ info }) {
              if (fieldSpans >= MAX_FIELD_SPANS || !hasResolver(info)) return;
              fieldSpans += 1;
              const field = tracer().startSpan(`${info.parentType.name}.${info.fieldName}`, { attributes: { "graphql.field.path": pathOf(info) } }, parent);
              return (error) => endSpan(field, error);
            },
          };
        },
        async willSendResponse({ errors, response }) {
          const failed = (errors?.length ?? 0) > 0 || (response.body.kind === "single" && (response.body.singleResult.errors?.length ?? 0) > 0);
          stop({ ...labels, outcome: failed ? "error" : "ok" });
          if (span) endSpan(span, failed ? new Error("GraphQL errors") : null);
        },
      };
    },
  };
}

const hasResolver = (info: GraphQLResolveInfo) => info.parentType.getFields()[info.fieldName]?.resolve !== undefined;

function pathOf(info: GraphQLResolveInfo): string {
  const keys: (string | number)[] = [];
  for (let at: GraphQLResolveInfo["path"] | undefined = info.path; at; at = at.prev) keys.unshift(at.key);
  return keys.join(".");
}

function endSpan(span: Span, error: Error | null): void {
  if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  span.end();
}
