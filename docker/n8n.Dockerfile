# syntax=docker/dockerfile:1
#
# n8n with the n8n-nodes-mediagen community package installed and a "MediaGen API" credential imported
# at start (docker/n8n/entrypoint.sh). Built from the repository root by docker/compose.yml:
#
#   docker build -f docker/n8n.Dockerfile -t mediagen-n8n .

ARG NODE_IMAGE=node:20.20-bookworm-slim
# The n8n release the end-to-end tests run the node in (test/n8n/install-n8n.mjs, N8N_VERSION).
ARG N8N_VERSION=2.41.1

# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
# Must equal the root package.json "packageManager".
ARG PNPM_VERSION=10.34.9
ENV CI=true \
    PNPM_HOME=/pnpm \
    PATH=/pnpm:$PATH
RUN npm install -g "pnpm@${PNPM_VERSION}" && pnpm --version
WORKDIR /src
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
RUN pnpm fetch
COPY . .
# The node package bundles @mediagen/core into CommonJS (nodes/build.mjs); n8n-workflow comes from n8n.
# Only the node package, core and the root's tools are installed (not the server, a devDependency of nodes
# for its tests).
RUN pnpm install --frozen-lockfile --offline --filter n8n-nodes-mediagen --filter @mediagen/core --filter mediagen \
 && pnpm --filter @mediagen/core run build \
 && pnpm --filter n8n-nodes-mediagen run build \
 && pnpm --filter n8n-nodes-mediagen pack --pack-destination /tmp/pack \
 && mkdir -p /pkg \
 && tar -xzf /tmp/pack/*.tgz -C /pkg \
 && test -d /pkg/package/dist

# ---------------------------------------------------------------------------------------------------
FROM n8nio/n8n:${N8N_VERSION}
USER root
# Kept outside the n8n-data volume and copied into ~/.n8n/nodes/node_modules at every start, so an
# upgraded image always brings its own version of the package (a volume would keep the old one).
COPY --from=build /pkg/package /opt/mediagen/n8n-nodes-mediagen
COPY docker/n8n/entrypoint.sh /opt/mediagen/entrypoint.sh
COPY docker/n8n/mediagen-credential.mjs /opt/mediagen/mediagen-credential.mjs
RUN chmod 0755 /opt/mediagen/entrypoint.sh \
 && chmod -R a+rX /opt/mediagen
USER node
ENTRYPOINT ["tini", "--", "/opt/mediagen/entrypoint.sh"]
