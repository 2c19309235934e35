import { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import { useWorkflowStack } from '../support/workflow-stack';

const KEY_A = 'key-of-acme-0123456789';
const KEY_B = 'key-of-globex-9876543210';
const sha = (k: string) => createHash('sha256').update(k).digest('hex');

const GOOD_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)";

describe('catalog and session-management endpoints (GET /v1/streams, GET and DELETE /v1/sessions)', () => {
  const t = useWorkflowStack({
    duckdb: true,
    env: {
      AUTH_DISABLED: 'false',
      API_KEYS: `acme:${sha(KEY_A)},globex:${sha(KEY_B)}`,
      ENGINE_RETRIES: '0',
    },
  });
  const { manager, llm } = t;

  async function call(method: string, path: string, key: string | null = KEY_A, body?: unknown) {
    const res = await fetch(`${t.stack.gatewayUrl}${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  describe('targets', () => {
    it('lists the configured targets, the default first, with their names and nouns; unconfigured ones are left out', async () => {
      const res = await call('GET', '/v1/targets');
      expect(res.status).toBe(200);
      // POSTGRES_URL is not set in this stack, so PostgreSQL is not offered.
      expect(res.body).toEqual({
        default: 'veloflux',
        targets: [
          {
            kind: 'veloflux',
            label: 'veloFlux',
            source_noun: 'stream',
            streaming: true,
            reachable: true,
            problem: null,
          },
          { kind: 'duckdb', label: 'DuckDB', source_noun: 'table', streaming: false, reachable: true, problem: null },
        ],
        // No SQL_SOURCES here: the SQL target it has is its one source.
        sources: [{ name: 'duckdb', engine: 'duckdb', label: 'DuckDB' }],
      });
      expect((await call('GET', '/v1/targets', null)).status).toBe(401);
    });
  });

  describe('streams', () => {
    it("lists the default target's streams with their columns, read from the engine", async () => {
      const res = await call('GET', '/v1/streams');
      expect(res.status).toBe(200);
      expect(res.body.target).toBe('veloflux');
      expect(res.body.source_noun).toBe('stream');
      const names = res.body.streams.map((s: { name: string }) => s.name);
      expect(names).toEqual(expect.arrayContaining(['sensor_stream', 'vehicle']));
      const sensor = res.body.streams.find((s: { name: string }) => s.name === 'sensor_stream');
      expect(sensor.columns).toContainEqual({ name: 'temperature', data_type: 'float64' });
      // It really asked the Manager, and no session or turn was needed (no LLM call).
      expect(manager.requests.some((r) => r.method === 'GET' && r.rawPath === '/streams')).toBe(true);
      expect(llm.requests).toHaveLength(0);
    });

    it('follows the engine: a stream added there shows up', async () => {
      manager.addStream('pressure_stream', [{ name: 'bar', data_type: 'float64' }]);
      const res = await call('GET', '/v1/streams?target=veloflux');
      expect(res.body.streams.map((s: { name: string }) => s.name)).toContain('pressure_stream');
    });

    it('lists the tables of a SQL target, per ?target', async () => {
      const res = await call('GET', '/v1/streams?target=duckdb');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ target: 'duckdb', source_noun: 'table' });
      const names = res.body.streams.map((s: { name: string }) => s.name);
      expect(names).toEqual(expect.arrayContaining(['sensor_readings', 'orders']));
    });

    it('describes one stream; an unknown one is 404 in words', async () => {
      const res = await call('GET', '/v1/streams/vehicle');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ target: 'veloflux', name: 'vehicle' });
      expect(res.body.columns).toContainEqual({ name: 'speed', data_type: 'int64' });

      const table = await call('GET', '/v1/streams/orders?target=duckdb');
      expect(table.status).toBe(200);
      expect(table.body.columns.length).toBeGreaterThan(1);

      const missing = await call('GET', '/v1/streams/no_such_stream');
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe("no stream named 'no_such_stream' on veloFlux");
    });

    it('refuses an unknown or unconfigured target with 400, and needs a key', async () => {
      const bogus = await call('GET', '/v1/streams?target=oracle');
      expect(bogus.status).toBe(400);
      expect(bogus.body.message).toBe('target must be one of: veloflux, duckdb, postgres');
      const pg = await call('GET', '/v1/streams?target=postgres');
      expect(pg.status).toBe(400);
      expect(pg.body.message).toBe('target postgres is not configured on this server (POSTGRES_URL is unset)');
      expect((await call('GET', '/v1/streams', null)).status).toBe(401);
      expect((await call('GET', '/v1/streams/vehicle', 'wrong-key')).status).toBe(401);
    });

    it('an engine that cannot answer is a 502 naming it, without its internals', async () => {
      manager.failNext(1, 503);
      const res = await call('GET', '/v1/streams');
      expect(res.status).toBe(502);
      expect(res.body.message).toBe('the veloFlux engine could not be read; try again later');
    });
  });

  describe('sessions', () => {
    it("lists only the caller's own sessions, newest first, a page at a time", async () => {
      const mine: string[] = [];
      for (let i = 0; i < 5; i++) mine.push((await call('POST', '/v1/sessions', KEY_A, {})).body.session_id);
      const theirs = (await call('POST', '/v1/sessions', KEY_B, {})).body.session_id as string;

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
        const page = await call('GET', `/v1/sessions?limit=2${q}`);
        expect(page.status).toBe(200);
        expect(page.body.sessions.length).toBeLessThanOrEqual(2);
        seen.push(...page.body.sessions.map((s: { session_id: string }) => s.session_id));
        cursor = page.body.next_cursor;
        pages++;
      } while (cursor && pages < 20);
      // Every one of mine exactly once (earlier tests of this file may have made more), none of theirs.
      for (const id of mine) expect(seen.filter((s) => s === id)).toHaveLength(1);
      expect(seen).not.toContain(theirs);
      // Newest first.
      expect(seen.slice(0, 5)).toEqual([...mine].reverse());

      const first = (await call('GET', '/v1/sessions?limit=1')).body.sessions[0];
      expect(first).toMatchObject({ session_id: mine[4], status: 'idle', turn_id: 0, target: 'veloflux' });
      expect(typeof first.created_at).toBe('string');

      const other = await call('GET', '/v1/sessions', KEY_B);
      expect(other.body.sessions.map((s: { session_id: string }) => s.session_id)).toEqual([theirs]);
    });

    it('skips sessions that expired and forgets their index entries, still filling each page', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push((await call('POST', '/v1/sessions', KEY_B, {})).body.session_id);
      // Expiry, as Redis does it: the session's keys vanish, its tenant index entry stays.
      const redis = new Redis(t.stack.config.redis.url);
      const index = `${t.stack.config.redis.prefix}:tenant:globex:sessions`;
      try {
        const before = await redis.zcard(index);
        await redis.del(...[ids[5], ids[4], ids[2]].map((id) => `${t.stack.config.redis.prefix}:session:${id}`));

        const page = await call('GET', '/v1/sessions?limit=2', KEY_B);
        expect(page.body.sessions.map((s: { session_id: string }) => s.session_id)).toEqual([ids[3], ids[1]]);
        const rest = await call('GET', `/v1/sessions?limit=2&cursor=${page.body.next_cursor}`, KEY_B);
        expect(rest.body.sessions.map((s: { session_id: string }) => s.session_id)[0]).toBe(ids[0]);
        // The entries of the expired sessions the pages passed over are gone from the index.
        expect(await redis.zcard(index)).toBe(before - 3);
      } finally {
        redis.disconnect();
      }
    });

    it('refuses a bad page size or a cursor it never issued with 400', async () => {
      expect((await call('GET', '/v1/sessions?limit=0')).status).toBe(400);
      expect((await call('GET', '/v1/sessions?limit=101')).status).toBe(400);
      expect((await call('GET', '/v1/sessions?limit=abc')).status).toBe(400);
      const bad = await call('GET', '/v1/sessions?cursor=zzz');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toEqual(['cursor must be a next_cursor this endpoint returned']);
    });

    it('deletes a session with its trace; it is gone from the list; another tenant gets 404', async () => {
      t.script.route({ intent: 'nl2sql', stream: 'sensor_stream', question: null }).draft(GOOD_SQL);
      const id = (await call('POST', '/v1/sessions', KEY_A, {})).body.session_id as string;
      const turn = await call('POST', `/v1/sessions/${id}/turns`, KEY_A, {
        text: 'average temperature per device every 10 seconds, only above 30',
        wait: true,
      });
      expect(turn.body.interrupt.type).toBe('need_confirm');
      expect((await call('GET', `/v1/sessions/${id}/trace`)).body.records.length).toBeGreaterThan(0);

      expect((await call('DELETE', `/v1/sessions/${id}`, KEY_B)).status).toBe(404);
      expect((await call('GET', `/v1/sessions/${id}`)).status).toBe(200);

      expect((await call('DELETE', `/v1/sessions/${id}`)).status).toBe(204);
      expect((await call('GET', `/v1/sessions/${id}`)).status).toBe(404);
      expect((await call('GET', `/v1/sessions/${id}/trace`)).status).toBe(404);
      const listed = await call('GET', '/v1/sessions?limit=100');
      expect(listed.body.sessions.map((s: { session_id: string }) => s.session_id)).not.toContain(id);
      expect((await call('DELETE', `/v1/sessions/${id}`)).status).toBe(404);
    });

    it('deleting a session whose turn runs cancels the turn first: its temp pipeline is not left behind', async () => {
      // A slow draft stream (about 20 words, 100 ms apart), so the turn is still running.
      t.script
        .route({ intent: 'nl2sql', stream: 'sensor_stream', question: null })
        .draft({ content: GOOD_SQL, chunkDelayMs: 100 });
      const id = (await call('POST', '/v1/sessions', KEY_A, {})).body.session_id as string;
      const started = await call('POST', `/v1/sessions/${id}/turns`, KEY_A, { text: 'average temperature per device' });
      expect(started.status).toBe(202);
      await waitFor(async () => t.script.callsOf('draft').length > 0);

      expect((await call('DELETE', `/v1/sessions/${id}`)).status).toBe(204);
      expect((await call('GET', `/v1/sessions/${id}`)).status).toBe(404);
      // Past the draft's natural end: the turn went no further, nothing reached the engine.
      await new Promise((r) => setTimeout(r, 2_500));
      expect(manager.requests.filter((r) => r.method === 'POST' && r.rawPath === '/pipelines')).toHaveLength(0);
    });
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
