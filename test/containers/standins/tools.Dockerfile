# Stand-ins for Jaeger all-in-one and Prometheus (tests only): small Node servers with the same
# ports and the parts of their HTTP APIs the container tier reads. Built twice, tagged with the
# names docker-compose.yml uses; the entrypoint picks the role by the image's STANDIN variable.
FROM node:22-bookworm-slim
ARG STANDIN
ENV STANDIN=${STANDIN}
# busybox's wget for the health checks docker-compose.yml runs in the real images.
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends busybox \
    && rm -rf /var/lib/apt/lists/* && ln -s /bin/busybox /usr/local/bin/wget
COPY otlp-receiver.js prometheus.js /standin/
USER node
ENTRYPOINT ["sh", "-c", "exec node /standin/$STANDIN.js \"$@\"", "--"]
