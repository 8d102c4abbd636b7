import { Router, type Request, type Response } from "express";
import type { z } from "zod";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** One documented REST operation: the router serves it and the OpenAPI document describes it. */
export interface OperationSpec {
  method: HttpMethod;
  /** Express syntax (`/users/:id`). */
  path: string;
  tag: string;
  summary: string;
  /** `none`: no token; `optional`: a token widens what is visible; `required`: 401 without one. */
  auth: "none" | "optional" | "required";
  success: number;
  /** Other success statuses, answered with the same body as `success`: status → when. */
  alsoAnswers?: Record<number, string>;
  /** JSON request body. */
  body?: z.ZodType;
  /** JSON answer of the success status. */
  response?: z.ZodType;
  /** multipart/form-data parts: name → description. */
  multipart?: Record<string, string>;
  query?: Record<string, string>;
  /** Error statuses this operation documents. */
  errors?: number[];
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
