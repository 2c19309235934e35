// One turn through the gateway of the composed product (scripts/containers.sh): a session on the
// default target, a request the reader links without a model, then the view must wait for a
// confirmation with preview rows. Prints `turn_ms=… rows=…` on success; exits 1 saying why.
const GW = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';
const headers = { authorization: `Bearer ${process.env.KEY}`, 'content-type': 'application/json' };

async function call(method, path, body) {
  const res = await fetch(GW + path, { method, headers, body: body && JSON.stringify(body) });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

// `node turn.js session ID`: the session's view is still there (after a Redis restart).
async function sessionKept(id) {
  for (let i = 0; i < 30; i++) {
    const res = await fetch(`${GW}/v1/sessions/${id}`, { headers }).catch(() => null);
    if (res?.ok && (await res.json()).sql) return console.log(`session ${id} kept`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`session ${id} not answered after 30 s`);
}

(async () => {
  if (process.argv[2] === 'session') return sessionKept(process.argv[3]);
  const unauth = await fetch(`${GW}/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (unauth.status !== 401) throw new Error(`without a key: ${unauth.status}, not 401`);
  const { session_id: id } = await call('POST', '/v1/sessions', {});
  const t0 = Date.now();
  const view = await call('POST', `/v1/sessions/${id}/turns`, {
    text: process.env.TURN_TEXT ?? 'how many orders are there',
    wait: true,
  });
  const ms = Date.now() - t0;
  if (view.interrupt?.type !== 'need_confirm' || !view.preview?.rows?.length) {
    throw new Error(
      `not need_confirm with rows: ${JSON.stringify({ status: view.status, interrupt: view.interrupt, error: view.error, sql: view.sql }).slice(0, 500)}`,
    );
  }
  const done = await call('POST', `/v1/sessions/${id}/turns`, { confirm: true, wait: true });
  if (done.status !== 'idle' || done.error)
    throw new Error(`the confirm ended ${done.status}: ${JSON.stringify(done.error)}`);
  console.log(
    `session=${id} turn_ms=${ms} sql=${JSON.stringify(view.sql)} rows=${JSON.stringify(view.preview.rows)} confirmed=${done.status}`,
  );
})().catch((err) => {
  console.log(`turn failed: ${err.message}`);
  process.exit(1);
});
