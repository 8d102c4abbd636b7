# syntax=docker/dockerfile:1
# The service's image. The builder compiles the TypeScript with every dependency; the runtime stage holds only what
# `node dist/src/main.js` reads: production dependencies, the compiled code, the migrations and package.json (its
# "type": "module", and the marker the service finds drizzle/ beside).
ARG NODE_IMAGE=node:24-slim

FROM ${NODE_IMAGE} AS builder
WORKDIR /app
# @scarf/scarf (a dependency of a dependency) reports installs over the network unless told not to.
ENV SCARF_ANALYTICS=false
# patches/ before `npm ci`: its postinstall (patch-package) applies them to node_modules (README, "Layout").
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-fund --no-audit
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY rest-compat ./rest-compat
RUN npm run build

FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev --no-fund --no-audit && npm cache clean --force

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
# Code and dependencies stay root's (read-only to the service); only DATA_DIR is the service's to write: PGlite files,
# uploads and .eml mail when no DATABASE_URL, STORAGE_URL or SMTP_URL is set (mount a volume there then).
COPY package.json ./
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=builder /app/dist ./dist
COPY drizzle ./drizzle
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# The slim image has no curl: Node asks /healthz itself.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself is PID 1 (exec form, no npm or shell in between), so the SIGTERM of `docker stop` or a rolling deploy
# reaches the service's own shutdown. main applies the migrations at start, as under `npm start`, with the same V8
# options (package.json's `start`; README, "Memory").
CMD ["node", "--max-semi-space-size=16", "--max-old-space-size=1536", "dist/src/main.js"]
