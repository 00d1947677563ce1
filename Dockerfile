# Build stage: full install (dev dependencies for the TypeScript compiler), then compile to dist/.
# On the active LTS, node:24-slim (Node 24, npm 11). It runs on the builder's own platform: dist/ is
# plain JavaScript, so a multi-arch build compiles once, natively, instead of under emulation (the V8
# code cache it writes may not suit another CPU's Node: the CLI then compiles from source, as it can).
# test/regressions/npm10-refuses-lockfile.test.ts runs this file with Node 24 and npm 11.
FROM --platform=$BUILDPLATFORM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY fixtures ./fixtures
COPY tools ./tools
RUN npm ci --no-audit --no-fund

# Runtime stage: production dependencies only, built output and assets, non-root user.
FROM node:24-slim
ENV NODE_ENV=production \
    MERCHANT_SANDBOX_HOST=0.0.0.0 \
    MERCHANT_SANDBOX_PORT=4010
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY fixtures ./fixtures
COPY scenarios ./scenarios
COPY examples ./examples
COPY vendor ./vendor
COPY LICENSE ./
# State survives container restarts when /data is a volume (docker run -v sandbox-data:/data ...). The
# image runs as uid 1000 (node): a host folder on /data must be writable by it, or run with
# --user "$(id -u):$(id -g)" (docs/how-to/run-with-docker.md).
RUN mkdir -p /data && chown node:node /data
ENV MERCHANT_SANDBOX_DATA=/data
VOLUME ["/data"]
USER node
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s \
  CMD node -e "fetch('http://127.0.0.1:4010/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
ENTRYPOINT ["node", "dist/cli.mjs"]
CMD ["start"]
