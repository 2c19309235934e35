# syntax=docker/dockerfile:1
# One image for every service: `docker build -t nl2pipeline .`, then `APP=<service>` in the
# container's environment picks which one runs (gateway, router-llm, sql-drafter, validator,
# explainer, janitor). `--build-arg APP=gateway` bakes a default in.
ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json tsconfig.build.json ./
COPY apps ./apps
COPY libs ./libs
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:${NODE_VERSION}-bookworm-slim
ARG APP
ENV NODE_ENV=production APP=${APP}
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /src/dist ./dist
COPY package.json ./
# Code is owned by root and read-only to the service user.
USER node
CMD ["sh", "-c", "exec node dist/apps/$APP/src/main.js"]
