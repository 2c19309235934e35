import { recordedExchanges, type RecordedExchange } from '../recorded-exchanges';
import { FakeManager } from './fake-manager';

// Contract test of the fake: replays, in order, the 374 exchanges recorded against a real veloFlux
// Manager (shared/manager-api/recorded, beside the repository root) and compares every answer
// byte for byte: status, content type, `allow`/`location` headers and body.

type Exchange = RecordedExchange;

interface Answer {
  status: number;
  contentType: string | null;
  allow: string | null;
  location: string | null;
  body: string;
}

/**
 * Exchanges whose answer the fake is allowed to get wrong, each with its reason. The test fails
 * when an exchange differs and is not listed here, and also when a listed exchange comes out
 * identical (the entry is stale and must go).
 */
const ACCEPTED_DIFFERENCES: Record<string, string> = {
  pipeline_stats_running_mock:
    'live runtime measurement: the real source kept failing to reach a broker (error_count 4, ' +
    '"Connection refused"), and the entry order is the runtime HashMap order; the fake serves zero ' +
    'counters in plan order',
  busy_create:
    'the racing create was sent by a second client and its request body was not recorded, so it ' +
    'cannot be replayed (the fake answers 415 to the body-less POST)',
  run_window_stats: 'live runtime counters (26 MQTT messages, a decode error) and HashMap order',
  run_plain_stats: 'live runtime counters (26 MQTT messages, a decode error) and HashMap order',
  run_window_stop_graceful:
    'a graceful stop timed out waiting for the broker-fed window to drain; timing of a live runtime',
  win_nowhere_stats: 'pipeline created, fed and deleted outside the recording; live counters',
  win_where_stats: 'pipeline created, fed and deleted outside the recording; live counters',
  win_count_stats: 'pipeline created, fed and deleted outside the recording; live counters',
  win_global_stats: 'pipeline created, fed and deleted outside the recording; live counters',
  w10_agent_stats: 'pipeline created, fed and deleted outside the recording; live counters',
  w10_plain_sql_stats: 'pipeline created, fed and deleted outside the recording; live counters',
  stats_order_0: 'processor order of stats is the runtime HashMap order, which the fake does not reproduce',
  stats_order_1: 'processor order of stats is the runtime HashMap order, which the fake does not reproduce',
  stats_order_2: 'processor order of stats is the runtime HashMap order, which the fake does not reproduce',
  stats_order_3: 'processor order of stats is the runtime HashMap order, which the fake does not reproduce',
  stats_order_4: 'processor order of stats is the runtime HashMap order, which the fake does not reproduce',
};

/**
 * State the recording relies on but did not record (the recorder created it out of band). Run
 * against the fake, over HTTP or its scripting API, right before the named exchange; each step
 * is inferred from the recorded answers that depend on it.
 */
type Step = (fake: FakeManager, send: (method: string, p: string, body?: unknown) => Promise<Answer>) => Promise<void>;

const nop = [{ type: 'nop' }];
const deleteTmp1: Step = async (_fake, send) => {
  // The recorder deleted `tmp_1` after each of these creates (it always deletes after a failed
  // create): the next one answers its own error, not 409.
  await expectStatus(send('DELETE', '/pipelines/tmp_1'), 200);
};
const BEFORE: Record<string, Step> = {
  // `tmp_1` already exists for the duplicate-id probe.
  err_duplicate_pipeline_id: async (_fake, send) => {
    await expectStatus(
      send('POST', '/pipelines', { id: 'tmp_1', sql: 'SELECT device_id FROM sensor_stream', sinks: nop }),
      201,
    );
  },
  err_no_sinks: deleteTmp1,
  err_mqtt_sink_missing_topic: deleteTmp1,
  err_unsupported_sink_type: deleteTmp1,
  err_unregistered_encoder: deleteTmp1,
  err_body_missing_required_field: deleteTmp1,
  // `stream sensor_stream still referenced by pipelines: p1, p2` (and p1 stopped, not running).
  err_stats_pipeline_not_running: async (_fake, send) => {
    await expectStatus(
      send('POST', '/pipelines', { id: 'p1', sql: 'SELECT device_id FROM sensor_stream', sinks: nop }),
      201,
    );
    await expectStatus(
      send('POST', '/pipelines', { id: 'p2', sql: 'SELECT device_id FROM sensor_stream', sinks: nop }),
      201,
    );
  },
  // p1 and p2 are gone by `pipelines_list_after_s5` (`[]`).
  err_describe_unknown_function: async (_fake, send) => {
    await expectStatus(send('DELETE', '/pipelines/p1'), 200);
    await expectStatus(send('DELETE', '/pipelines/p2'), 200);
  },
  // The orphan whose GET shows a kafka sink over sensor_readings; its create was not recorded.
  orphan_start: async (_fake, send) => {
    const id = '__nl2pipeline_tmp__orphan_start';
    const sql = 'SELECT device_id, temp FROM sensor_readings';
    await expectStatus(send('POST', '/pipelines', { id, sql, sinks: [{ type: 'kafka' }] }), 400);
  },
  // A second client held the per-pipeline lock during `busy_delete`.
  busy_delete: async (fake) => {
    fake.busyNext('__nl2pipeline_tmp__busy', 1);
  },
  // `tmp_stream_x` and the running `restart_valid` of `pipelines_list_before_restart`; the
  // probes' temp pipelines were deleted after their explain (the list shows none of them).
  restart_orphan_create: async (_fake, send) => {
    const listed = JSON.parse((await send('GET', '/pipelines')).body) as { id: string }[];
    for (const { id } of listed.filter((p) => p.id.startsWith('__nl2pipeline_tmp__probe_'))) {
      await expectStatus(send('DELETE', `/pipelines/${id}`), 200);
    }
    const columns = [{ name: 'a', data_type: 'int64' }];
    const stream = { name: 'tmp_stream_x', type: 'mock', schema: { type: 'json', props: { columns } } };
    await expectStatus(send('POST', '/streams', stream), 201);
    await expectStatus(
      send('POST', '/pipelines', { id: 'restart_valid', sql: 'SELECT temp FROM sensor_readings', sinks: nop }),
      201,
    );
    await expectStatus(send('POST', '/pipelines/restart_valid/start'), 200);
  },
  // A running pipeline with a window, a filter and two sinks (`stats_order_sink_0`, `second`).
  stats_order_0: async (_fake, send) => {
    await expectStatus(send('DELETE', '/pipelines/restart_valid'), 200);
    const sql =
      "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 0 GROUP BY device_id, tumblingwindow('ss', 10)";
    const sinks = [{ type: 'nop' }, { id: 'second', type: 'nop' }];
    await expectStatus(send('POST', '/pipelines', { id: 'stats_order', sql, sinks }), 201);
    await expectStatus(send('POST', '/pipelines/stats_order/start'), 200);
  },
};

async function expectStatus(answer: Promise<Answer>, status: number): Promise<void> {
  const a = await answer;
  if (a.status !== status) throw new Error(`out-of-band step: expected ${status}, got ${a.status}: ${a.body}`);
}

function describeDifference(e: Exchange, got: Answer): string {
  const parts: string[] = [];
  if (got.status !== e.status) parts.push(`status ${got.status} != ${e.status}`);
  if (got.contentType !== e.content_type) parts.push(`content-type ${got.contentType} != ${e.content_type}`);
  if (got.allow !== (e.headers['allow'] ?? null)) parts.push(`allow ${got.allow} != ${e.headers['allow']}`);
  if (got.location !== (e.headers['location'] ?? null)) {
    parts.push(`location ${got.location} != ${e.headers['location']}`);
  }
  if (got.body !== e.body) parts.push(`body\n      got:  ${got.body}\n      want: ${e.body}`);
  return parts.join('; ');
}

describe('FakeManager replays the recorded Manager exchanges', () => {
  const exchanges = recordedExchanges();
  const fake = new FakeManager({ seedStreams: false });
  let base: string;

  beforeAll(async () => {
    base = await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });

  async function send(method: string, p: string, body?: string | null, contentType?: string | null): Promise<Answer> {
    const init: RequestInit = { method, headers: contentType ? { 'content-type': contentType } : {} };
    if (body !== undefined && body !== null) init.body = body;
    const res = await fetch(base + p, init);
    return {
      status: res.status,
      contentType: res.headers.get('content-type'),
      allow: res.headers.get('allow'),
      location: res.headers.get('location'),
      body: await res.text(),
    };
  }

  it('has every exchange of the recording', () => {
    expect(exchanges).toHaveLength(374);
    for (const name of [...Object.keys(ACCEPTED_DIFFERENCES), ...Object.keys(BEFORE)]) {
      expect(exchanges.map((e) => e.name)).toContain(name);
    }
  });

  it('answers every exchange like the engine, apart from the accepted differences', async () => {
    const jsonSend = (method: string, p: string, body?: unknown): Promise<Answer> =>
      body === undefined ? send(method, p) : send(method, p, JSON.stringify(body), 'application/json');
    const different: { e: Exchange; index: number; detail: string }[] = [];
    const setupErrors: string[] = [];
    for (const [index, e] of exchanges.entries()) {
      await BEFORE[e.name]?.(fake, jsonSend).catch((err: unknown) =>
        setupErrors.push(`before ${e.name}: ${String(err)}`),
      );
      const got = await send(e.method, e.path, e.request, e.request_content_type);
      const detail = describeDifference(e, got);
      if (detail !== '') different.push({ e, index, detail });
    }
    const identical = exchanges.length - different.length;
    console.log(
      [
        `replay: identical=${identical} different=${different.length} of ${exchanges.length}`,
        ...different.map((d) => `  #${d.index} ${d.e.name}: ${d.detail.split('\n')[0]}`),
      ].join('\n'),
    );

    const unexpected = different.filter((d) => !(d.e.name in ACCEPTED_DIFFERENCES));
    const differentNames = new Set(different.map((d) => d.e.name));
    const stale = Object.keys(ACCEPTED_DIFFERENCES).filter((name) => !differentNames.has(name));
    const report = unexpected.map(
      (d) => `#${d.index} ${d.e.name}: ${d.e.method} ${d.e.path}\n    request: ${d.e.request}\n    ${d.detail}`,
    );
    expect({ setupErrors, unexpected: report, stale }).toEqual({ setupErrors: [], unexpected: [], stale: [] });
  });
});
