// Gives integration and e2e tests a real Redis, in this order of preference:
//  1. REDIS_URL, when the caller provides one (CI scripts, a developer's own Redis);
//  2. a throw-away redis-server from PATH on a free port (this machine kind has no Docker);
//  3. a Redis container through testcontainers, where Docker is available.
// Each test file still uses its own key and BullMQ prefix, so files never see each other's data.
const { spawn } = require('node:child_process');
const net = require('node:net');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function hasBinary(name) {
  return (process.env.PATH || '').split(path.delimiter).some((dir) => fs.existsSync(path.join(dir, name)));
}

async function waitForPort(port, deadlineMs) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.end(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server did not listen on ${port} within ${deadlineMs} ms`);
}

module.exports = async function globalSetup() {
  if (process.env.REDIS_URL) return;
  if (hasBinary('redis-server')) {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nl2p-redis-'));
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      {
        stdio: 'ignore',
      },
    );
    await waitForPort(port, 10_000);
    globalThis.__NL2P_REDIS__ = {
      stop: async () => (child.kill('SIGTERM'), fs.rmSync(dir, { recursive: true, force: true })),
    };
    process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
    return;
  }
  const { GenericContainer } = require('testcontainers');
  const container = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
  globalThis.__NL2P_REDIS__ = { stop: () => container.stop() };
  process.env.REDIS_URL = `redis://${container.getHost()}:${container.getMappedPort(6379)}`;
};
