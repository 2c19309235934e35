// Summarizes a .cpuprofile (from cpu-profile.cjs or profile-in-process.ts): self time by
// function and by package/source area, and inclusive ("total") time of the heaviest functions.
//   node bench/tools/profile-summary.cjs <file.cpuprofile> [rows]
const fs = require('node:fs');

const [file, rowsArg] = process.argv.slice(2);
const rows = Number(rowsArg ?? 30);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Sample time per node from the timeDeltas (sample i took timeDeltas[i+1]).
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i + 1] ?? 0;
  selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const IDLE = new Set(['(idle)', '(program)']);
const idle = [...selfUs.entries()]
  .filter(([id]) => IDLE.has(nodes.get(id).callFrame.functionName))
  .reduce((a, [, v]) => a + v, 0);
// Start-up (loading modules) is left out: a sample under the module loader is start-up.
const underLoader = (id) => {
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    if (nodes.get(cur).callFrame.url.startsWith('node:internal/modules/')) return true;
  }
  return false;
};
const startup = [...selfUs.entries()].filter(([id]) => underLoader(id)).reduce((a, [, v]) => a + v, 0);

function area(url) {
  if (!url) return '(native/vm)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url;
  const m = /\/(apps|libs|bench)\/(.*)$/.exec(url);
  if (m)
    return `${m[1]}/${m[2]
      .split('/')
      .slice(0, m[1] === 'libs' ? 2 : 1)
      .join('/')}`;
  return url;
}
const label = (n) => `${n.callFrame.functionName || '(anon)'} ${area(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const bySelf = new Map();
const byArea = new Map();
const inclusive = new Map();
for (const [id, us] of selfUs) {
  const n = nodes.get(id);
  if (IDLE.has(n.callFrame.functionName) || underLoader(id)) continue;
  bySelf.set(label(n), (bySelf.get(label(n)) ?? 0) + us);
  byArea.set(area(n.callFrame.url), (byArea.get(area(n.callFrame.url)) ?? 0) + us);
  // Inclusive: every distinct function label on the stack once.
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(nodes.get(cur));
    if (seen.has(l)) continue;
    seen.add(l);
    inclusive.set(l, (inclusive.get(l) ?? 0) + us);
  }
}
const busy = total - idle - startup;
const pct = (us) => `${((100 * us) / busy).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms`;
const top = (m, k) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([l, us]) => `${pct(us)}  ${l}`)
    .join('\n');
console.log(
  `${file}: ${(total / 1e6).toFixed(2)} s sampled, start-up ${(startup / 1e6).toFixed(2)} s, busy after start-up ${(busy / 1e6).toFixed(2)} s (idle, program and start-up left out)`,
);
console.log(`\n-- self time by area\n${top(byArea, rows)}`);
console.log(`\n-- self time by function\n${top(bySelf, rows)}`);
console.log(`\n-- inclusive time by function\n${top(inclusive, rows * 2)}`);

// Who spends each heavy area's time: a sample whose frame is in the area is charged to the
// nearest caller outside it (e.g. which of our functions the zod time comes from).
const areas = (process.env.CALLERS_OF ?? 'zod,ioredis,bullmq,node:internal/deps/undici/undici').split(',');
for (const wanted of areas) {
  const callers = new Map();
  let sum = 0;
  for (const [id, us] of selfUs) {
    const n = nodes.get(id);
    if (IDLE.has(n.callFrame.functionName) || underLoader(id)) continue;
    let cur = id;
    let inArea = false;
    while (cur !== undefined) {
      const a = area(nodes.get(cur).callFrame.url);
      if (a === wanted) inArea = true;
      else if (inArea && nodes.get(cur).callFrame.url && !nodes.get(cur).callFrame.url.startsWith('node:')) break;
      cur = parent.get(cur);
    }
    if (!inArea) continue;
    const l = cur === undefined ? '(no caller outside)' : label(nodes.get(cur));
    callers.set(l, (callers.get(l) ?? 0) + us);
    sum += us;
  }
  console.log(
    `\n-- ${wanted} (${pct(sum).trim()} incl. what it calls), by nearest caller outside it\n${top(callers, 12)}`,
  );
}
