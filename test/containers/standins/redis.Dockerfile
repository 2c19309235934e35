# Stand-in for redis:7-alpine (tests only): Debian's redis-server 7.0 on bookworm minbase,
# same command names (redis-server, redis-cli) and working directory (/data) as the official image.
FROM nl2p-standin/bookworm:minbase
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server \
    && rm -rf /var/lib/apt/lists/* && mkdir -p /data
WORKDIR /data
# The official image is built with protected mode off (other containers connect without a
# password); Debian's binary is not, so it is turned off on the command line.
ENTRYPOINT ["sh", "-c", "if [ \"$1\" = redis-server ]; then shift; exec redis-server --protected-mode no \"$@\"; fi; exec \"$@\"", "--"]
CMD ["redis-server"]
