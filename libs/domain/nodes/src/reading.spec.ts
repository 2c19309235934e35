import { newSessionEnvelope, type Column, type Envelope, type NodeName } from '@nl2p/envelope';
import { targetProfile, type Catalog, type EngineTarget } from '@nl2p/engine';
import { GRAPH } from '@nl2p/graph';
import type { LlmClient } from '@nl2p/llm';
import { QueryPlan } from '@nl2p/query-plan';
import type { NodeRunContext } from '@nl2p/workflow-runtime';
import type { Engines } from './clients';
import type { Grounding } from './grounding';
import { drafterNodes, routerNodes } from './llm-nodes';
import { readRequest, type ReadingOptions } from './reading';
import { validatorNodes } from './validator-nodes';

const col = (name: string, data_type: string): Column => ({ name, data_type });
const TABLES: Record<string, Column[]> = {
  sensor_readings: [
    col('ts', 'TIMESTAMP'),
    col('device_id', 'VARCHAR'),
    col('temperature', 'DOUBLE'),
    col('humidity', 'DOUBLE'),
  ],
  orders: [
    col('order_id', 'INTEGER'),
    col('status', 'VARCHAR'),
    col('product', 'VARCHAR'),
    col('quantity', 'INTEGER'),
    col('unit_price', 'DOUBLE'),
  ],
};
const VALUES = {
  sensor_readings: { device_id: ['dev-01', 'dev-02', 'dev-03'] },
  orders: { status: ['pending', 'shipped', 'cancelled'] },
};
const SCHEMA = { tables: TABLES, values: VALUES, streaming: false };

/** The catalog reads and engine calls the nodes make, counted. */
function fakes() {
  const calls = { catalog: 0, describe: 0 };
  const engine = {
    describeStream: (name: string) => {
      calls.describe += 1;
      return Promise.resolve(TABLES[name] ? { name, columns: TABLES[name] } : null);
    },
  } as unknown as EngineTarget;
  const engines = { for: () => engine, profile: targetProfile } as unknown as Engines;
  const catalog = { dialect: 'duckdb', functions: [], syntax: [], dialectNotes: [], values: VALUES } as Catalog;
  const grounding = {
    catalog: () => {
      calls.catalog += 1;
      return Promise.resolve(catalog);
    },
  } as unknown as Grounding;
  return { calls, engines, grounding };
}

/** An LLM that must not be called. */
const noLlm: LlmClient = {
  text: () => Promise.reject(new Error('no model call expected')),
  json: () => Promise.reject(new Error('no model call expected')),
};

function ctx() {
  const emitted: unknown[] = [];
  const c: NodeRunContext = {
    emit: (event) => {
      emitted.push(event);
      return Promise.resolve();
    },
    signal: new AbortController().signal,
    checkpoint: (e) => Promise.resolve(e),
  };
  return { c, emitted };
}

/** A turn of a new request, as init_session leaves it (both tables grounded). */
function turn(request: string): Envelope {
  return {
    ...newSessionEnvelope({
      sessionId: 'a'.repeat(32),
      target: 'duckdb',
      maxAttempts: 3,
      sink: { type: 'nop', props: {} },
    }),
    turn_id: 1,
    status: 'running',
    request,
    streams: Object.keys(TABLES),
    tables: TABLES,
    digest_hash: 'h',
  };
}

const TRUSTING: ReadingOptions = { linking: true, mode: 'plan', trustLinks: true };

async function run(
  handlers: ReturnType<typeof validatorNodes>,
  node: NodeName,
  e: Envelope,
  c: NodeRunContext = ctx().c,
): Promise<Envelope> {
  const handler = handlers[node];
  if (!handler) throw new Error(`no handler for ${node}`);
  return handler({ ...e, node }, c);
}

describe('the link node: the request read once, into the envelope', () => {
  it('a conclusive request: intent, tables, plan, every token accounted for; trusted, the router skipped', async () => {
    const { engines, grounding } = fakes();
    const nodes = validatorNodes({ engines, grounding, reading: TRUSTING });
    const e = await run(nodes, 'link', turn('average temperature per device'));

    const r = e.reading;
    expect(r).toMatchObject({
      request: 'average temperature per device',
      intent: 'nl2sql',
      table: 'sensor_readings',
      confidence: 'high',
      unknown: [],
      ambiguous: [],
      unexplained: [],
      trusted: true,
    });
    expect(r?.tables[0]).toMatchObject({ table: 'sensor_readings' });
    expect(r?.plan).toMatchObject({ source: 'sensor_readings', group_by: [{ column: 'device_id' }] });
    expect(r?.tokens).toEqual([
      { token: 'average', consumed_by: 'aggregate', reason: null },
      { token: 'temperature', consumed_by: 'column', reason: null },
      { token: 'per', consumed_by: 'group', reason: null },
      { token: 'device', consumed_by: 'column', reason: null },
    ]);
    expect(e.intent).toBe('nl2sql');
    expect(GRAPH.link.next(e)).toBe('ensure_active_stream');
  });

  it('is not trusted without PLAN_TRUST_LINKS or in free-SQL mode: the router and the drafter run as before', async () => {
    const { engines, grounding } = fakes();
    for (const reading of [
      { ...TRUSTING, trustLinks: false },
      { ...TRUSTING, mode: 'sql' as const },
    ]) {
      const e = await run(
        validatorNodes({ engines, grounding, reading }),
        'link',
        turn('average temperature per device'),
      );
      expect(e.reading).toMatchObject({ confidence: 'high', intent: 'nl2sql', trusted: false });
      expect(e.intent).toBeNull();
      expect(GRAPH.link.next(e)).toBe('route_intent');
    }
  });

  it('without LINKING the router decides the intent, while a trusted plan is still compiled after it', async () => {
    const { engines, grounding } = fakes();
    const nodes = validatorNodes({ engines, grounding, reading: { ...TRUSTING, linking: false } });
    const e = await run(nodes, 'link', turn('average temperature per device'));
    expect(e.reading?.trusted).toBe(true);
    expect(e.intent).toBeNull();
    expect(GRAPH.link.next(e)).toBe('route_intent');
  });

  it('reads nothing when nothing would use it (LINKING off, free SQL)', async () => {
    const { calls, engines, grounding } = fakes();
    const nodes = validatorNodes({ engines, grounding, reading: { linking: false, mode: 'sql', trustLinks: true } });
    const e = await run(nodes, 'link', turn('average temperature per device'));
    expect(e.reading).toBeNull();
    expect(calls.catalog).toBe(0);
    expect(GRAPH.link.next(e)).toBe('route_intent');
  });

  it('a word naming nothing in the data is unexplained: partial at best, not trusted', async () => {
    const { engines, grounding } = fakes();
    const e = await run(
      validatorNodes({ engines, grounding, reading: TRUSTING }),
      'link',
      turn('average wind speed per device'),
    );
    expect(e.reading).toMatchObject({ unknown: ['wind speed'], unexplained: ['wind speed'], trusted: false });
    expect(e.reading?.confidence).not.toBe('high');
    expect(e.reading?.tokens.filter((t) => t.consumed_by === 'unexplained').map((t) => t.token)).toEqual([
      'wind',
      'speed',
    ]);
    expect(GRAPH.link.next(e)).toBe('route_intent');
  });

  it('decides the intent of a catalog question, and names the table a description asks about', async () => {
    const { engines, grounding } = fakes();
    const nodes = validatorNodes({ engines, grounding, reading: TRUSTING });
    const list = await run(nodes, 'link', turn('which tables are there?'));
    expect(list.reading).toMatchObject({ intent: 'list_streams', plan: null, trusted: false });
    const describe = await run(nodes, 'link', turn('describe orders'));
    expect(describe.reading).toMatchObject({ intent: 'describe_stream', named_table: 'orders' });
    expect(GRAPH.link.next(describe)).toBe('route_intent');
  });
});

describe('route_intent on the reading', () => {
  it('takes the intent the reading decided, with no model call', async () => {
    const { engines, grounding } = fakes();
    const linked = await run(
      validatorNodes({ engines, grounding, reading: TRUSTING }),
      'link',
      turn('describe orders'),
    );
    const routed = await routerNodes({ llm: noLlm, linking: true }).route_intent?.(linked, ctx().c);
    expect(routed).toMatchObject({ intent: 'describe_stream', requested_stream: 'orders' });
  });

  it('asks the model when the reading leaves the intent open, is stale, or LINKING is off', async () => {
    const asked: string[] = [];
    const llm: LlmClient = {
      text: () => Promise.reject(new Error('unexpected')),
      json: <T>() => {
        asked.push('router');
        return Promise.resolve({
          value: { intent: 'nl2sql', stream: null, question: null } as T,
          text: '',
          usage: {} as never,
        });
      },
    };
    const { engines, grounding } = fakes();
    const linked = await run(
      validatorNodes({ engines, grounding, reading: TRUSTING }),
      'link',
      turn('describe orders'),
    );
    await routerNodes({ llm, linking: true }).route_intent?.(
      { ...linked, request: 'describe orders\nClarification: x' },
      ctx().c,
    );
    await routerNodes({ llm, linking: false }).route_intent?.(linked, ctx().c);
    const open = await run(validatorNodes({ engines, grounding, reading: TRUSTING }), 'link', turn('hello there'));
    expect(open.reading?.intent).toBeNull();
    await routerNodes({ llm, linking: true }).route_intent?.(open, ctx().c);
    expect(asked).toEqual(['router', 'router', 'router']);
  });
});

describe('ensure_active_stream on the reading', () => {
  it("picks the reading's table without linking again, and goes on to compile a trusted plan", async () => {
    const { calls, engines, grounding } = fakes();
    const nodes = validatorNodes({ engines, grounding, reading: TRUSTING });
    const linked = await run(nodes, 'link', turn('average temperature per device'));
    const reads = calls.catalog;
    const e = await run(nodes, 'ensure_active_stream', linked);
    expect(calls.catalog).toBe(reads);
    expect(e.active_stream).toBe('sensor_readings');
    expect(e.reading).toBe(linked.reading);
    expect(GRAPH.ensure_active_stream.next(e)).toBe('compile_plan');
    // The person named another stream: the drafter, with the reading as its hint.
    const other = await run(nodes, 'ensure_active_stream', { ...linked, requested_stream: 'orders' });
    expect(GRAPH.ensure_active_stream.next(other)).toBe('draft_sql');
  });

  it('reads a reply against the word asked about: the request is read again with that word as the column', async () => {
    const { engines, grounding } = fakes();
    const nodes = validatorNodes({ engines, grounding, reading: TRUSTING });
    const linked = await run(nodes, 'link', turn('average wind speed per device'));
    expect(linked.reading?.unknown).toEqual(['wind speed']);
    const asked = {
      kind: 'word' as const,
      word: 'wind speed',
      candidates: [{ kind: 'column' as const, table: 'sensor_readings', column: 'humidity' }],
    };
    const e = await run(nodes, 'link', { ...linked, reading: null, reply: { asked, text: 'I meant the humidity' } });
    expect(e.request).toBe('average wind speed per device');
    expect(e.reply).toBeNull();
    expect(e.resolutions).toEqual([
      { word: 'wind speed', means: { kind: 'column', table: 'sensor_readings', column: 'humidity' }, from: 'reply' },
    ]);
    expect(e.reading).toMatchObject({ trusted: true, unknown: [], table: 'sensor_readings' });
    expect(e.reading?.plan?.select).toContainEqual({
      kind: 'aggregate',
      aggregate: { fn: 'avg', arg: { kind: 'column', ref: { column: 'humidity' } }, distinct: false },
      alias: null,
    });
    expect(e.reading?.assumptions[0]).toMatch(/"wind speed" is read as sensor_readings.humidity/);
  });

  it('a reply that names nothing asks again, saying why', async () => {
    const { engines, grounding } = fakes();
    const nodes = validatorNodes({ engines, grounding, reading: TRUSTING });
    const linked = await run(nodes, 'link', turn('average wind speed per device'));
    const asked = { kind: 'word' as const, word: 'wind speed', candidates: [] };
    const e = await run(nodes, 'link', { ...linked, reading: null, reply: { asked, text: 'the anemometer' } });
    expect(e.interrupt).toMatchObject({ type: 'need_clarification', asked });
    expect(e.interrupt?.question).toMatch(/I could not find 'anemometer' in the data, so I cannot use that reply/);
    expect(GRAPH.link.next(e)).toBe('END');
  });
});

describe('compile_plan: the trusted plan compiled on the validator', () => {
  async function settled(request: string, reading: ReadingOptions = TRUSTING) {
    const { engines, grounding } = fakes();
    const nodes = validatorNodes({ engines, grounding, reading });
    const e = await run(nodes, 'ensure_active_stream', await run(nodes, 'link', turn(request)));
    return { nodes, e };
  }

  it("is the draft, with the reading's assumptions, shown as it arrives; then the local check", async () => {
    const { nodes, e } = await settled('average temperature per device');
    const { c, emitted } = ctx();
    const out = await run(nodes, 'compile_plan', e, c);
    expect(out.draft).toMatchObject({ mode: 'plan', plan: { source: 'sensor_readings' }, questions: [] });
    expect(out.draft.sql).toMatch(/SELECT device_id, avg\(temperature\).* FROM sensor_readings GROUP BY device_id/i);
    expect(out.draft.assumptions).toEqual(e.reading?.assumptions);
    expect(out.validation).toMatchObject({ attempt: 1, ok: false, error: null, error_stage: null });
    expect(emitted).toEqual([{ type: 'draft_delta', node: 'compile_plan', delta: out.draft.sql }]);
    expect(GRAPH.compile_plan.next(out)).toBe('prevalidate');
  });

  it('a plan the catalog check refuses: a local failure for repair (plan), or the drafter (auto)', async () => {
    const { nodes, e } = await settled('average temperature per device');
    // The catalog moved under the reading: the column is gone.
    const gone = {
      ...e,
      tables: { ...TABLES, sensor_readings: TABLES.sensor_readings.filter((c) => c.name !== 'temperature') },
      stream_schema: null,
    };
    const failed = await run(nodes, 'compile_plan', gone);
    expect(failed.draft.sql).toBeNull();
    expect(failed.validation).toMatchObject({ attempt: 1, error_stage: 'local' });
    expect(failed.validation.error).toMatch(/temperature/);
    expect(GRAPH.compile_plan.next(failed)).toBe('revise_sql');

    const auto = await settled('average temperature per device', { ...TRUSTING, mode: 'auto' });
    const handedOver = await run(auto.nodes, 'compile_plan', { ...auto.e, tables: gone.tables, stream_schema: null });
    expect(handedOver.validation.error).toBeNull();
    expect(GRAPH.compile_plan.next(handedOver)).toBe('draft_sql');
  });
});

describe('draft_sql on the reading', () => {
  const planning = { mode: 'plan' as const, trustLinks: true, profileOf: () => targetProfile('duckdb') };

  it("drafts from the envelope's reading, not from linking the request again", async () => {
    const { grounding } = fakes();
    const e = { ...turn('average temperature per device'), active_stream: 'sensor_readings' };
    // A reading whose plan the request's words would not make: it is the one drafted.
    const reading = readRequest(e.request ?? '', SCHEMA, TRUSTING);
    const plan = QueryPlan.parse({
      source: 'sensor_readings',
      select: [{ kind: 'aggregate', aggregate: { fn: 'max', arg: { kind: 'column', ref: { column: 'humidity' } } } }],
    });
    const drafted = await drafterNodes({ llm: noLlm, grounding, planning }).draft_sql?.(
      { ...e, node: 'draft_sql', reading: { ...reading, plan } },
      ctx().c,
    );
    expect(drafted?.draft.sql).toMatch(/max\(humidity\)/i);
  });

  it('feedback the edit rules read edits the current plan, with no model call', async () => {
    const { grounding } = fakes();
    const e = { ...turn('average temperature per device'), active_stream: 'sensor_readings' };
    const reading = readRequest(e.request ?? '', SCHEMA, TRUSTING);
    const plan = QueryPlan.parse(reading.plan);
    const revised = await drafterNodes({ llm: noLlm, grounding, planning }).revise_sql?.(
      {
        ...e,
        node: 'revise_sql',
        reading,
        feedback: 'only dev-02',
        draft: { ...e.draft, mode: 'plan', sql: 'x', plan },
      },
      ctx().c,
    );
    expect(revised?.draft.sql).toBe(
      "SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE device_id IN ('dev-02') GROUP BY device_id",
    );
    expect(revised?.draft.assumptions).toContain("Changed as you asked: only rows with device_id in ('dev-02').");
  });

  it('feedback beyond the rules goes to the model with the current plan; the request is not read again with it', async () => {
    const { grounding } = fakes();
    const e = { ...turn('average temperature per device'), active_stream: 'sensor_readings' };
    const reading = readRequest(e.request ?? '', SCHEMA, TRUSTING);
    const plan = QueryPlan.parse(reading.plan);
    const asked: string[] = [];
    const llm: LlmClient = {
      text: () => Promise.reject(new Error('unexpected')),
      json: (req: { messages: { content: string }[] }) => {
        asked.push(req.messages.map((m) => m.content).join('\n'));
        return Promise.reject(new Error('seen'));
      },
    };
    const revised = drafterNodes({ llm, grounding, planning }).revise_sql?.(
      {
        ...e,
        node: 'revise_sql',
        reading,
        feedback: 'the peak rather than the mean',
        draft: { ...e.draft, mode: 'plan', sql: 'x', plan },
      },
      ctx().c,
    );
    await expect(revised).rejects.toThrow('seen');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('<feedback>\nthe peak rather than the mean\n</feedback>');
    expect(asked[0]).toContain('<user_request>\naverage temperature per device\n</user_request>');
    expect(asked[0]).toContain('"aggregates":[{"fn":"avg","of":"temperature","distinct":false}]');
  });
});
