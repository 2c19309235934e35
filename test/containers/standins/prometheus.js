// Stand-in for Prometheus (tests only): reads the dns_sd_configs of the file given with
// --config.file (names and port), scrapes every address each name resolves to every 5 s, and
// answers GET /api/v1/targets (activeTargets with job, instance and health) and /-/healthy.
const dns = require('node:dns/promises');
const fs = require('node:fs');
const http = require('node:http');

const arg = process.argv.find((a) => a.startsWith('--config.file='));
const config = fs.readFileSync(arg ? arg.split('=')[1] : '/etc/prometheus/prometheus.yml', 'utf8');
// The file's own shape: `- job_name: x`, then `- names: [a, b]` and `port: n` under dns_sd_configs.
const jobs = [];
for (const block of config.split(/- job_name:\s*/).slice(1)) {
  const job = block.split('\n')[0].trim();
  const names = /names:\s*\[([^\]]*)\]/
    .exec(block)[1]
    .split(',')
    .map((s) => s.trim());
  const port = Number(/port:\s*(\d+)/.exec(block)[1]);
  jobs.push({ job, names, port });
}

let targets = [];
async function scrape() {
  const next = [];
  for (const { job, names, port } of jobs) {
    for (const name of names) {
      const addresses = await dns.resolve4(name).catch(() => []);
      for (const address of addresses) {
        const instance = `${address}:${port}`;
        const health = await fetch(`http://${instance}/metrics`, { signal: AbortSignal.timeout(3000) })
          .then(async (r) => (r.ok && (await r.text()).includes('nl2p_') ? 'up' : 'down'))
          .catch(() => 'down');
        next.push({ labels: { job, instance, name }, health });
      }
    }
  }
  targets = next;
}
setInterval(() => void scrape(), 5000);
void scrape();

http
  .createServer((req, res) => {
    if (req.url === '/-/healthy' || req.url === '/-/ready') return res.writeHead(200).end('OK');
    if (req.url.startsWith('/api/v1/targets')) {
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'success', data: { activeTargets: targets } }));
    }
    res.writeHead(404).end();
  })
  .listen(9090, '0.0.0.0');
