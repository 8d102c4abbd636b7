import { Router, type Request, type Response } from "express";
import type { z } from "zod";
import type { Paging } from "../src/platform/paging.js";

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
  summary: string;
  /** `none`: no token; `optional`: a token widens what is visible; `required`: 401 without one. */
  auth: "none" | "optional" | "required";
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

/** A router that records every operation it serves, for the OpenAPI document. */
export class DocumentedRouter {
  readonly router = Router();
  readonly operations: OperationSpec[] = [];

  add(spec: OperationSpec, handler: Handler): void {
    this.router[spec.method](spec.path, handler);
    this.operations.push(spec);
  }
}
