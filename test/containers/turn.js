// Turns through the gateway of the composed product (scripts/containers.sh), on the default
// target (the embedded DuckDB demo) and the default model (the embedded one):
//
//   node turn.js                     a request the reader links without a model, then the view must
//                                    wait for a confirmation with preview rows, then the confirm.
//                                    Prints `session=… turn_ms=… trace=… rows=…`.
//   node turn.js session ID          the session's view is still there (after a Redis restart).
//   node turn.js drafter CMD…        a request the reader cannot settle (so it goes through
//                                    router-llm and sql-drafter); once sql-drafter has started its
//                                    draft, CMD runs (`docker compose restart sql-drafter`); the
//                                    turn must still reach need_confirm (SQL the database ran),
//                                    drafted by sql-drafter with a model call, and the confirm.
//                                    Prints `… restart_s=…`.
//
// Each turn is sent with its own `traceparent`, so the collector can be asked for that trace.
// Exits 1 saying why when a check fails.
const { spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { createParser } = require('eventsource-parser');

const GW = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';
const headers = { authorization: `Bearer ${process.env.KEY}`, 'content-type': 'application/json' };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function call(method, path, body, extra = {}) {
  const res = await fetch(GW + path, { method, headers: { ...headers, ...extra }, body: body && JSON.stringify(body) });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** A fresh W3C trace context: the turn's spans all land under this trace id. */
function newTrace() {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
}

function mustWaitWithRows(view) {
  if (view.interrupt?.type !== 'need_confirm' || !view.preview?.rows?.length) {
    const seen = { status: view.status, interrupt: view.interrupt, error: view.error, sql: view.sql };
    throw new Error(`not need_confirm with rows: ${JSON.stringify(seen).slice(0, 500)}`);
  }
}

async function confirm(id) {
  const done = await call('POST', `/v1/sessions/${id}/turns`, { confirm: true, wait: true });
  if (done.status !== 'idle' || done.error) {
    throw new Error(`the confirm ended ${done.status}: ${JSON.stringify(done.error)}`);
  }
  return done.status;
}

async function sessionKept(id) {
  for (let i = 0; i < 30; i++) {
    const res = await fetch(`${GW}/v1/sessions/${id}`, { headers }).catch(() => null);
    if (res?.ok && (await res.json()).sql) return console.log(`session ${id} kept`);
    await sleep(1000);
  }
  throw new Error(`session ${id} not answered after 30 s`);
}

async function plainTurn() {
  const unauth = await fetch(`${GW}/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (unauth.status !== 401) throw new Error(`without a key: ${unauth.status}, not 401`);
  const { session_id: id } = await call('POST', '/v1/sessions', {});
  const { traceId, traceparent } = newTrace();
  const t0 = Date.now();
  const view = await call(
    'POST',
    `/v1/sessions/${id}/turns`,
    { text: process.env.TURN_TEXT ?? 'how many orders are there', wait: true },
    { traceparent },
  );
  const ms = Date.now() - t0;
  mustWaitWithRows(view);
  const confirmed = await confirm(id);
  console.log(
    `session=${id} turn_ms=${ms} trace=${traceId} sql=${JSON.stringify(view.sql)} rows=${JSON.stringify(view.preview.rows)} confirmed=${confirmed}`,
  );
}

/** Resolves once the turn's SSE stream shows `node` starting (rejects after `timeoutMs`). */
async function nodeStarted(id, turn, node, timeoutMs) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let seen = false;
  const parser = createParser({
    onEvent(m) {
      const data = JSON.parse(m.data);
      if (m.event === 'node_start' && data.node === node) {
        seen = true;
        controller.abort();
      }
    },
  });
  try {
    const res = await fetch(`${GW}/v1/sessions/${id}/events?turn=${turn}`, {
      headers: { ...headers, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    const decoder = new TextDecoder();
    for await (const chunk of res.body) parser.feed(decoder.decode(chunk, { stream: true }));
  } catch (err) {
    if (!seen) throw new Error(`${node} did not start within ${timeoutMs} ms (${err.message})`);
  } finally {
    clearTimeout(timer);
  }
  if (!seen) throw new Error(`the turn's events ended before ${node} started`);
}

async function turnEnded(id, timeoutMs) {
  for (const t0 = Date.now(); Date.now() - t0 < timeoutMs; await sleep(1000)) {
    const view = await call('GET', `/v1/sessions/${id}`).catch(() => null);
    if (view && view.status !== 'running') return view;
  }
  throw new Error(`the turn was still running after ${timeoutMs / 1000} s`);
}

/**
 * The turn's node records must show the draft written on sql-drafter with a model call, and a
 * draft running when the restart began (`restartAt`): the stopping worker finished it within its
 * grace, or handed it back and the restarted one drafted it (then `runs` is 2).
 */
async function draftedBySqlDrafter(id, turn, restartAt) {
  const { records } = await call('GET', `/v1/sessions/${id}/trace?turn=${turn}`);
  const drafts = records.filter((r) => r.node === 'draft_sql');
  const kept = drafts.find((r) => r.ok && r.service === 'sql-drafter' && r.llm?.length > 0);
  if (!kept) throw new Error(`no draft_sql on sql-drafter with a model call: ${JSON.stringify(drafts).slice(0, 500)}`);
  const running = drafts.find((r) => Date.parse(r.start) <= restartAt && Date.parse(r.end) >= restartAt);
  if (!running) throw new Error(`no draft was running when the restart began: ${JSON.stringify(drafts).slice(0, 500)}`);
  const services = [...new Set(records.map((r) => r.service))];
  return { runs: drafts.length, finishedInGrace: running.ok, services };
}

async function drafterTurn(restart) {
  const { session_id: id } = await call('POST', '/v1/sessions', {});
  const { traceId, traceparent } = newTrace();
  const text = process.env.DRAFTER_TEXT ?? 'quantity per status';
  const t0 = Date.now();
  const started = await call('POST', `/v1/sessions/${id}/turns`, { text }, { traceparent });
  await nodeStarted(id, started.turn_id, 'draft_sql', 120_000);
  const r0 = Date.now();
  const restarted = spawnSync(restart[0], restart.slice(1), { stdio: ['ignore', 'ignore', 'inherit'] });
  if (restarted.status !== 0) throw new Error(`${restart.join(' ')} exited ${restarted.status}`);
  const restartS = ((Date.now() - r0) / 1000).toFixed(1);
  // The drafter's replacement loads the embedded model before it takes the job again.
  const view = await turnEnded(id, 300_000);
  const ms = Date.now() - t0;
  // The embedded 135M model's plan is not judged here (its rows may be none); the turn must reach
  // the confirmation with SQL the database ran.
  if (view.interrupt?.type !== 'need_confirm' || !view.sql || !view.preview?.columns?.length) {
    const seen = { status: view.status, interrupt: view.interrupt, error: view.error, sql: view.sql };
    throw new Error(`not need_confirm with a preview: ${JSON.stringify(seen).slice(0, 500)}`);
  }
  const { runs, finishedInGrace, services } = await draftedBySqlDrafter(id, started.turn_id, r0);
  const confirmed = await confirm(id);
  console.log(
    `session=${id} turn_ms=${ms} restart_s=${restartS} trace=${traceId} draft_sql_runs=${runs} finished_in_grace=${finishedInGrace} services=${services.join(',')} sql=${JSON.stringify(view.sql)} rows=${view.preview.rows.length} confirmed=${confirmed}`,
  );
}

(async () => {
  if (process.argv[2] === 'session') return sessionKept(process.argv[3]);
  if (process.argv[2] === 'drafter') return drafterTurn(process.argv.slice(3));
  return plainTurn();
})().catch((err) => {
  console.log(`turn failed: ${err.message}`);
  process.exit(1);
});
