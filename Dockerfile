# syntax=docker/dockerfile:1
# Freela: build with dev dependencies, run with production ones only, as a non-root user.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY package.json package-lock.json ./
# The postinstall script (patch-package) applies patches/ to node_modules: it must be there first.
COPY patches ./patches
# npm install honours the lock; see .ci/run for why not npm ci.
RUN npm install --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATABASE_PATH=/data/freela.db \
    UPLOADS_DIR=/data/uploads
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
# The migrate/seed/backup scripts run from source through tsx.
COPY --from=build /app/app ./app
COPY --from=build /app/db ./db
COPY --from=build /app/migrations ./migrations
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/tsconfig.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# SESSION_SECRET and APP_URL (the public address, for the links in e-mails) must be given at run
# time (docker run -e SESSION_SECRET=… -e APP_URL=https://…): the server does not start without them.
# exec replaces the shell, so the launcher runs as PID 1, receives SIGTERM itself and stops its
# server workers (scripts/server.js; one per core, WEB_CONCURRENCY sets how many).
CMD ["sh", "-c", "node_modules/.bin/tsx scripts/migrate.ts && exec node --import tsx scripts/serve.ts"]
