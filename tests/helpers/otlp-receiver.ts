import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A span as an OTLP/HTTP JSON export carries it, with its attributes read into plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status?: { code?: number };
}

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };

/** A local OpenTelemetry collector: takes OTLP/HTTP JSON trace exports (POST /v1/traces) and keeps their spans. */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server: Server | undefined;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        if (req.method !== "POST" || req.url !== "/v1/traces" || !(req.headers["content-type"] ?? "").includes("json")) {
          res.writeHead(415).end();
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          resourceSpans: { scopeSpans: { spans: (Omit<ReceivedSpan, "attributes"> & { attributes?: { key: string; value: OtlpValue }[] })[] }[] }[];
        };
        for (const resource of body.resourceSpans)
          for (const scope of resource.scopeSpans)
            for (const span of scope.spans)
              this.spans.push({ ...span, attributes: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, valueOf(a.value)])) });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

function valueOf(value: OtlpValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue ?? "";
}
