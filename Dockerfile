# The Nereus broker as a container image. Build from the repository root:
#   docker build -t nereus-broker .
#   docker run -p 9092:9092 -p 6650:6650 -p 9644:9644 -v nereus-data:/var/lib/nereus nereus-broker
# Stage "build" builds the broker and the packages it uses with the workspace's pnpm, packs them as they are
# published, and installs the tarballs with npm, production dependencies only (better-sqlite3's native addon is built
# there). The runtime stage holds Node.js and that installation, runs as the unprivileged `node` user, keeps its data
# in the volume /var/lib/nereus and listens on every interface: Kafka 9092, Pulsar 6650, admin HTTP 9644 (/healthz,
# /metrics, /console). Clients outside the container need NEREUS_KAFKA_ADVERTISED_HOST (docs/installing.md).

FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local \
    npm_config_update_notifier=false \
    npm_config_fund=false \
    npm_config_audit=false \
    TURBO_TELEMETRY_DISABLED=1 \
    DO_NOT_TRACK=1
RUN npm install --global pnpm@12.4.2
WORKDIR /src
COPY . .
RUN pnpm install --frozen-lockfile --filter "@nereus/broker..." \
 && pnpm --filter "@nereus/broker..." run build \
 && mkdir /tarballs \
 && pnpm --filter-prod "@nereus/broker..." exec pnpm pack --pack-destination /tarballs
WORKDIR /opt/nereus
RUN printf '{"name":"nereus-image","private":true,"type":"module"}\n' > package.json \
 && npm install --omit=dev /tarballs/*.tgz \
 && npm cache clean --force

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PATH=/opt/nereus/node_modules/.bin:$PATH \
    NEREUS_CONFIG=/etc/nereus/broker.json \
    NEREUS_DATA_DIR=/var/lib/nereus \
    NEREUS_KAFKA_HOST=0.0.0.0 \
    NEREUS_ADMIN_HOST=0.0.0.0
COPY --from=build /opt/nereus /opt/nereus
COPY apps/broker/docker/container-config.json /etc/nereus/broker.json
RUN mkdir -p /var/lib/nereus && chown node:node /var/lib/nereus
VOLUME /var/lib/nereus
EXPOSE 9092 6650 9644
USER node
WORKDIR /var/lib/nereus
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.NEREUS_ADMIN_PORT||9644)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["nereus"]
