import { createRequire } from "node:module";
import path from "node:path";
import express, { Router } from "express";

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

// Served from the installed swagger-ui-dist, so the docs page works without reaching any CDN.
const PAGE = `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><title>Fitness API — documentação</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head>
<body><div id="docs"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body></html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#docs" });`;

/** The interactive docs page at /api/docs. */
export function docsRouter(): Router {
  const router = Router();
  router.get("/docs", (_req, res) => {
    res.type("html").send(PAGE);
  });
  router.get("/docs/init.js", (_req, res) => {
    res.type("application/javascript").send(INIT);
  });
  router.use("/docs/assets", express.static(swaggerUiDir, { index: false }));
  return router;
}
