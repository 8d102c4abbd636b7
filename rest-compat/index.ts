import express, { Router } from "express";
import type { Logger } from "../src/platform/logger.js";
import type { Services } from "../src/services.js";
import { errorHandler, notFoundHandler } from "./errors.js";
import { usersRouter } from "./users.routes.js";

/** The REST compatibility layer mounted at /api: JSON parsing, every module's router, the error shape. */
export function restApi(services: Services, logger: Logger): Router {
  const api = Router();
  api.use(express.json({ limit: "1mb" }));
  api.use(usersRouter(services));
  api.use(notFoundHandler);
  api.use(errorHandler(logger));
  return api;
}
