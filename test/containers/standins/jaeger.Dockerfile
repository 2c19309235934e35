# Jaeger all-in-one itself, for tests only when the registry's image cannot be pulled: the binary
# built from its Go module (scripts/containers.sh: github.com/jaegertracing/jaeger/cmd/all-in-one
# at the version of the compose file's tag) on Debian bookworm minbase, laid out like the official
# image (same binary path, user 10001, in-memory storage), with busybox's wget for the health check
# docker-compose.yml runs in the official (Alpine) image.
FROM nl2p-standin/bookworm:minbase
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends busybox \
    && rm -rf /var/lib/apt/lists/* && ln -s /bin/busybox /usr/local/bin/wget
COPY all-in-one-linux /go/bin/all-in-one-linux
USER 10001
EXPOSE 4317 4318 14269 16686
ENTRYPOINT ["/go/bin/all-in-one-linux"]
