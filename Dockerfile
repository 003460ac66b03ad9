# Lastro's image: `serve`, `serve --no-workers`, `worker` and `migrate` all run from it (compose.yaml).
# Checked by test/platform/container.test.ts (the rules below, and the CMD started outside Docker).

# Build stage: every dependency, so the image is only made from code that typechecks.
FROM node:20.19.5-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/sdk/package.json packages/sdk/package.json
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json vitest.config.ts ./
COPY src src
COPY test test
COPY bench bench
COPY bin bin
# What the tests import beside src (the SDK's source, the soak scripts), so the typecheck finds it.
COPY scripts scripts
COPY packages/sdk/src packages/sdk/src
# The dashboard's source: its tests import it, and it is built here into dist/dashboard.
COPY web web
# The typecheck covers the tests too (some live beside the code); the image then leaves them out.
RUN npx tsc --noEmit && npm run build:dashboard && find src -name '*.test.ts' -delete

# Production dependencies only, without install scripts.
FROM node:20.19.5-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/sdk/package.json packages/sdk/package.json
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM node:20.19.5-bookworm-slim AS runtime
# A 32 MB semi-space (V8's default is 16): a request's garbage is young, and half as many scavenges
# halve the CPU spent on garbage collection (docs/performance.md, docs/scaling.md for the memory).
# npm start and bin/lastro say the same; `docker run -e NODE_OPTIONS=...` replaces it.
ENV NODE_OPTIONS=--max-semi-space-size=32
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    METRICS_PORT=9464 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules node_modules
COPY --from=build --chown=root:root /app/package.json package.json
COPY --from=build --chown=root:root /app/src src
COPY --from=build --chown=root:root /app/bin bin
# The built dashboard, served at /dashboard.
COPY --from=build --chown=root:root /app/dist/dashboard dist/dashboard
# Read at start by the guides route (/docs/guides).
COPY --chown=root:root docs/guides docs/guides
RUN mkdir -p /data && chown node:node /data
# The image's own `node` user: the code is root's and read-only to it; only /data is writable.
USER node
EXPOSE 3000
# Every command's process serves /health on METRICS_PORT (127.0.0.1 inside the container), the API
# and the worker alike, so one check fits both.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.METRICS_PORT || 9464) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 (exec form, no shell or npm in between): SIGTERM reaches src/main.ts, which stops
# accepting, finishes in-flight requests and task rounds, and closes the database.
ENTRYPOINT ["node", "--import", "tsx", "src/main.ts"]
CMD ["serve"]
