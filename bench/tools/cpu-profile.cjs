// Preload (`NODE_OPTIONS=--require …/cpu-profile.cjs`) that CPU-profiles a service and writes
// `<CPU_PROFILE_DIR>/<service>-<pid>.cpuprofile` when it is told to stop. Node's own `--cpu-prof`
// writes only on a normal exit, and the services re-raise SIGTERM after their shutdown hooks, so
// they never exit normally; the inspector session's replies are synchronous in-thread, so the
// profile is written before the shutdown starts.
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.CPU_PROFILE_DIR || 'tmp/profiles';
const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 500 });
session.post('Profiler.start');

function write() {
  session.post('Profiler.stop', (err, result) => {
    if (err || !result) return;
    fs.mkdirSync(dir, { recursive: true });
    const name = path.basename(path.dirname(path.dirname(process.argv[1] || 'node'))) || 'node';
    fs.writeFileSync(path.join(dir, `${name}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  });
}
for (const signal of ['SIGTERM', 'SIGINT']) process.prependOnceListener(signal, write);
