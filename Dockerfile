# One image for every service: `docker build -t nl2pipeline .`, then `APP=<service>` in the
# container's environment picks which one runs (gateway, router-llm, sql-drafter, validator,
# explainer, janitor). `--build-arg APP=gateway` bakes a default in.
#
# Needs BuildKit (the default builder since Docker 23; `DOCKER_BUILDKIT=1` on 20.10) for the
# optional CA secret below; no `# syntax=` line, so the builder's own Dockerfile frontend is used
# and nothing is pulled besides the base image.
#
# Behind a proxy that re-signs TLS, pass its CA bundle as a build secret (never baked into any
# layer): `docker build --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt .`
#
# The embedded model's llama.cpp binding: only the CPU binary for the build machine's
# architecture is kept (`linux-x64` or `linux-arm64`). The CUDA and Vulkan binaries (~600 MB) are
# never loaded by the services (the embedded client runs on the CPU), so they are not shipped;
# list them in LLAMA_BINARIES to keep them (see README, Deploy).
ARG NODE_VERSION=22

# One `npm ci` for both the build and the runtime's node_modules (pruned below); npm's download
# cache is a BuildKit cache mount, so a rebuild with a changed lock file fetches only what changed.
FROM node:${NODE_VERSION}-bookworm-slim AS install
WORKDIR /src
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=ca,required=false --mount=type=cache,target=/root/.npm,sharing=locked \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi; \
    npm ci --no-audit --no-fund

FROM install AS build
# tsconfig.json too: the console's bundler resolves the @nl2p/* paths of a lib's file from the
# nearest tsconfig.json, the root one for libs/.
COPY tsconfig.json tsconfig.base.json tsconfig.build.json ./
COPY apps ./apps
COPY libs ./libs
RUN npm run build
# The demo dataset of the embedded DuckDB target (DUCKDB_PATH's default, data/demo.duckdb, ~2 MB):
# created at build time so the read-only containers answer out of the box.
RUN node -e "require('./dist/libs/engine/src/index.js').ensureDemoDatabase('data/demo.duckdb')"

# The runtime's node_modules: the installed tree without dev dependencies (taken before the build
# wrote any cache into it), and only the llama.cpp binaries listed.
FROM install AS deps
ARG LLAMA_BINARIES=
RUN npm prune --omit=dev --no-audit --no-fund \
    && keep="${LLAMA_BINARIES:-linux-$(node -p process.arch)}" \
    && for dir in node_modules/@node-llama-cpp/*; do \
         case " $keep " in *" ${dir##*/} "*) ;; *) rm -rf "$dir" ;; esac; \
       done

FROM node:${NODE_VERSION}-bookworm-slim
ARG APP
ENV NODE_ENV=production APP=${APP}
WORKDIR /app
COPY --from=deps --chown=root:root /src/node_modules ./node_modules
COPY --from=build --chown=root:root /src/dist ./dist
COPY --from=build --chown=root:root /src/data/demo.duckdb ./data/demo.duckdb
COPY package.json ./
# Code and data are owned by root and read-only to the service user.
USER node
# SIGTERM goes straight to node (exec): the workers' graceful stop (SHUTDOWN_GRACE_MS).
CMD ["sh", "-c", "exec node dist/apps/$APP/src/main.js"]
