import { Router, type Request, type RequestHandler, type Response } from "express";
import type { z } from "zod";
import type { Paging } from "../src/platform/paging.js";
import type { ScopeRequirement } from "../src/platform/auth/scopes.js";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** A part of a multipart/form-data body: a JSON object read with `json`, or a file. */
export type MultipartPart = { description: string; required: boolean } & ({ json: z.ZodType } | { file: true });

/** An answer that is not JSON: its media type (a PDF's bytes). */
export interface BinaryAnswer {
  mediaType: string;
  description: string;
  /** Headers this answer carries: name → what it says. */
  headers?: Record<string, string>;
}

/**
 * One documented REST operation: the router serves it and the OpenAPI document describes it, from the same zod schemas
 * the handler parses with and the services answer with.
 */
export interface OperationSpec {
  method: HttpMethod;
  /** Express syntax (`/users/:id`). */
  path: string;
  /** Unique, a client's method name. */
  operationId: string;
  tag: string;
  /** A line: what it does. */
  summary: string;
  /** What a client needs beyond the summary: who may call it, what it changes, what to expect (CommonMark). */
  description?: string;
  /** `none`: no token; `optional`: a token widens what is visible; `required`: 401 without one. */
  auth: "none" | "optional" | "required";
  /**
   * What a token handed to a tool needs to call it (contract §18.2): a scope, or `login` (a login session only).
   * Every operation that reads a token names one; login tokens hold them all.
   */
  scope?: ScopeRequirement;
  success: number;
  /** Other success statuses, answered with the same body as `success`: status → when. */
  alsoAnswers?: Record<number, string>;
  /** Path parameters that are not ids (`queryId`, the default): name → the schema its value is read with. */
  pathParams?: Record<string, z.ZodType>;
  /** The query string's parameters, as the handler reads them (`parseQuery`). */
  query?: z.ZodObject;
  /** `page`, `size` and `sort`, as `parsePageRequest` reads them with this paging. */
  paging?: Paging;
  /** Request headers the operation reads: name → what it is. */
  headers?: Record<string, string>;
  /** JSON request body, as the handler reads it. */
  body?: z.ZodType;
  /** multipart/form-data parts. */
  multipart?: Record<string, MultipartPart>;
  /** The answer of the success statuses: JSON read from this schema, a binary body, or (absent) no body. */
  response?: z.ZodType | BinaryAnswer;
  /** Error statuses of this operation beyond those its inputs and authentication give: status → when. */
  errors?: number[] | Record<number, string>;
  /** Error statuses answered with no body (the refusals of gateway events, as gateways expect). */
  emptyErrors?: Record<number, string>;
}

export type Handler = (req: Request, res: Response) => Promise<void>;

/**
 * What a request to an operation that reads a token passes before its handler: refused (thrown) when the caller's token
 * lacks `requirement`, or when its budget is spent (contract §18.4, which also sets its RateLimit fields on `res`).
 */
export type OperationGuard = (req: Request, res: Response, requirement: ScopeRequirement) => Promise<void>;

/**
 * A router that records every operation it serves, for the OpenAPI document. Its routes are grouped by their first
 * path segment (`/exercises/...`): a request is matched against the routes of its segment alone, not against every
 * route of the API in turn, so what routing costs does not grow with the API.
 */
export class DocumentedRouter {
  readonly operations: OperationSpec[] = [];
  private readonly segments = new Map<string, Router>();

  constructor(private readonly guard: OperationGuard) {}

  /** Express middleware: the routes of the request's first path segment, in the order they were added. */
  readonly router: RequestHandler = (req, res, next) => {
    const routes = this.segments.get(firstSegment(req.path));
    if (routes) routes(req, res, next);
    else next();
  };

  /** Runs `middleware` before every route under `prefix` (one segment: `/personal`), whatever was added first. */
  use(prefix: string, middleware: RequestHandler): void {
    this.routesOf(prefix).use(prefix, middleware);
  }

  add(spec: OperationSpec, handler: Handler): void {
    const { scope } = spec;
    if (spec.auth !== "none" && scope === undefined) throw new Error(`${spec.operationId}: an operation that reads a token names its scope`);
    const guarded: Handler =
      scope === undefined
        ? handler
        : async (req, res) => {
            await this.guard(req, res, scope);
            await handler(req, res);
          };
    this.routesOf(spec.path)[spec.method](spec.path, guarded);
    this.operations.push(spec);
  }

  private routesOf(path: string): Router {
    const segment = firstSegment(path);
    if (segment.startsWith(":")) throw new Error(`${path}: a route's first segment is a literal, the key its request is routed by`);
    let routes = this.segments.get(segment);
    if (!routes) this.segments.set(segment, (routes = Router()));
    return routes;
  }
}

/** Lower-cased, as Express matches paths regardless of case. */
function firstSegment(path: string): string {
  const end = path.indexOf("/", 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}
