import { connectAsync, type MqttClient } from 'mqtt';
import type { Column } from '@nl2p/envelope';
import { ManagerError, type ManagerClient, type ProcessorStats } from '../../manager-client';
import { removeDryRun, renameSource } from './dry-run';
import type { SampleRow } from './plan-eval';
import { sampleRows } from './sample-rows';
import { readStats } from './stats';
import { windowWait } from './window-wait';

/** Several queries over one stream, run side by side on the same sample rows, their output read back. */
export interface SampleOutputsRequest {
  /** The stream the queries read; each reads a temporary MQTT copy of it instead. */
  stream: string;
  sqls: readonly string[];
  /** Temporary names (`__nl2pipeline_tmp__…`): query i runs as `<prefix>_<i>`, the rows go to `<prefix>_in`. */
  prefix: string;
}

export interface SampleOutputsOptions {
  /** Everything (setup, feeding, waiting for windows, deleting) within this long. */
  limitMs: number;
  /** The broker the engine and this process both reach; default: the source stream's own. */
  brokerUrl?: string;
  pollMs?: number;
}

/** What one query did with the sample rows. */
export interface QueryOutput {
  sql: string;
  /** The engine's `last_error` when the query failed on rows. */
  runtimeError: string | null;
  /** Rows the query's decoder took (the warm-up messages aside). */
  rowsIn: number;
  /** Rows the engine counted into the encoder. */
  rowsOut: number;
  /** The rows its MQTT sink published, as decoded JSON objects. */
  rows: Record<string, unknown>[];
}

export type SampleOutputsReport =
  | { outcome: 'not_run'; error: string; elapsedMs: number }
  | {
      outcome: 'ran';
      rowsFed: number;
      /** The rows fed, in order: what an expected output is computed from. */
      fed: SampleRow[];
      /** The longest window it waited for (`a 10 s tumbling window`), if any. */
      window: string | null;
      /** A window flush it could not wait for within the limit: output may be missing. */
      windowCut: boolean;
      outputs: QueryOutput[];
      elapsedMs: number;
    };

/**
 * The engine as an oracle of output: every query reads its own temporary MQTT stream, all of them
 * on ONE input topic, so a single publish feeds every query the same row at the same instant and
 * a processing-time window cuts them alike. Each pipeline publishes to its own output topic on the
 * same broker, which this process subscribes to before starting them. Everything temporary is
 * deleted in a `finally`.
 */
export class SampleOutputs {
  constructor(
    private readonly client: ManagerClient,
    private readonly options: SampleOutputsOptions,
  ) {}

  async run(req: SampleOutputsRequest): Promise<SampleOutputsReport> {
    const started = Date.now();
    const deadline = started + this.options.limitMs;
    const notRun = (error: string): SampleOutputsReport => ({ outcome: 'not_run', error, elapsedMs: Date.now() - started });
    const source = await this.client.describeStream(req.stream);
    const url = source.spec.props['broker_url'];
    const broker = this.options.brokerUrl ?? (source.spec.type === 'mqtt' && typeof url === 'string' ? url : null);
    if (!broker) return notRun(`stream ${req.stream} is not read from MQTT and no broker is set`);
    const plan = feedPlan(source.spec.schema.columns, req.sqls);
    const ids = req.sqls.map((_, i) => `${req.prefix}_${i}`);
    await this.remove(ids);
    let mqtt: MqttClient | null = null;
    try {
      mqtt = await connectAsync(broker.replace(/^tcp:\/\//i, 'mqtt://'), { connectTimeout: 5_000, reconnectPeriod: 0 });
      const received = await collect(mqtt, ids.map((id) => `${id}_out`));
      await this.setUp(req, ids, broker, source.spec.schema.columns);
      const baseline = await this.warmUp(mqtt, `${req.prefix}_in`, ids, deadline);
      if (!baseline) return notRun(`the engine's sources received nothing from ${broker}`);
      await alignToWindow(plan.tumblingSeconds, deadline);
      for (const row of plan.rows) await mqtt.publishAsync(`${req.prefix}_in`, JSON.stringify(row), { qos: 0 });
      const watched = await this.watch(ids, received, baseline, plan, deadline);
      return {
        outcome: 'ran', rowsFed: plan.rows.length, fed: plan.rows, window: plan.window, windowCut: watched.cut,
        outputs: ids.map((id, i) => ({ sql: req.sqls[i], ...watched.byId[id], rows: received.get(`${id}_out`) ?? [] })),
        elapsedMs: Date.now() - started,
      }; // prettier-ignore
    } catch (err) {
      if (err instanceof ManagerError && !err.unavailable) return notRun(err.message);
      throw err;
    } finally {
      await mqtt?.endAsync(false).catch(() => undefined);
      await this.remove(ids).catch(() => undefined); // the janitor sweeps what is left
    }
  } // prettier-ignore

  private async setUp(req: SampleOutputsRequest, ids: string[], broker: string, columns: Column[]): Promise<void> {
    for (const [i, id] of ids.entries()) {
      await this.client.createStream({
        name: id, type: 'mqtt', schema: { type: 'json', props: { columns } },
        props: { broker_url: broker, topic: `${req.prefix}_in`, qos: 0 }, decoder: { type: 'json', props: {} },
      }); // prettier-ignore
      await this.client.createPipeline({
        id,
        sql: renameSource(req.sqls[i], req.stream, id),
        sinks: [{ type: 'mqtt', props: { broker_url: broker, topic: `${id}_out`, qos: 0 }, output: { mode: 'full', omit_if_empty: true } }],
        options: { eventtime: { enabled: false } },
      }); // prettier-ignore
    }
    for (const id of ids) await this.client.startPipeline(id);
  }

  /**
   * Sources subscribe some time after start. An empty JSON array is a message the engine's
   * decoder turns into no row, so it is sent until every source counted one; the rows each
   * decoder took by then are the baseline (zero), and no sample row is ever sent twice.
   */
  private async warmUp(mqtt: MqttClient, topic: string, ids: string[], deadline: number): Promise<Map<string, number> | null> {
    const until = Math.min(deadline, Date.now() + 10_000);
    for (;;) {
      const counts = await Promise.all(ids.map(async (id) => sourceMessages(await this.client.pipelineStats(id))));
      if (counts.every((n) => n > 0)) break;
      if (Date.now() >= until) return null;
      await mqtt.publishAsync(topic, '[]', { qos: 0 });
      await sleep(this.options.pollMs ?? 200);
    }
    await sleep(300); // probes still in flight land before the baseline is read
    const rows = await Promise.all(ids.map(async (id) => [id, decodedRows(await this.client.pipelineStats(id))] as const));
    return new Map(rows);
  } // prettier-ignore

  /**
   * Until every query has failed, or taken every row and (its output counted and received, or,
   * with a window, its flush time passed), or the deadline.
   */
  private async watch(ids: string[], received: Map<string, Record<string, unknown>[]>, baseline: Map<string, number>, plan: FeedPlan, deadline: number) {
    const flushBy = Date.now() + plan.waitMs;
    const stopBy = deadline - 1_500; // the deletes need time too
    let previous = '';
    let changedAt = Date.now();
    for (;;) {
      const byId: Record<string, Omit<QueryOutput, 'sql' | 'rows'>> = {};
      for (const id of ids) {
        const stats = await this.client.pipelineStats(id);
        const reading = readStats(stats);
        byId[id] = { runtimeError: reading.runtimeError?.lastError ?? null, rowsIn: decodedRows(stats) - (baseline.get(id) ?? 0), rowsOut: reading.rowsOut };
      } // prettier-ignore
      const now = JSON.stringify([byId, ids.map((id) => received.get(`${id}_out`)?.length)]);
      if (now !== previous) changedAt = Date.now();
      const settled = now === previous;
      // Output counted but never published (a runtime that computes no values) stops changing too.
      const stuck = Date.now() - changedAt >= STUCK_MS;
      previous = now;
      const done = ids.every((id) => {
        const q = byId[id];
        if (q.runtimeError) return true;
        const allIn = q.rowsIn >= plan.rows.length;
        const allOut = (received.get(`${id}_out`)?.length ?? 0) >= q.rowsOut || stuck;
        return allIn && allOut && settled && (!plan.window || q.rowsOut > 0 || Date.now() >= flushBy);
      });
      if (done) return { byId, cut: false };
      if (Date.now() >= stopBy) return { byId, cut: plan.window !== null && Date.now() < flushBy };
      await sleep(this.options.pollMs ?? 200);
    }
  } // prettier-ignore

  private async remove(ids: string[]): Promise<void> {
    for (const id of ids) await removeDryRun(this.client, id);
  }
}

/** How long counters and received rows may stay unchanged before output still owed is given up on. */
const STUCK_MS = 2_000;

interface FeedPlan {
  rows: SampleRow[];
  window: string | null;
  waitMs: number;
  /** The longest tumbling window in seconds: the feed starts early in one so the rows share it. */
  tumblingSeconds: number | null;
}

/**
 * Rows that put values on both sides of every literal of every query (free SQL: no plan says
 * which rows satisfy what), enough of them to fill the largest count window, and how long the
 * longest window may take to flush.
 */
function feedPlan(columns: readonly Column[], sqls: readonly string[]): FeedPlan {
  const covering = sampleRows(columns, null, sqls.join('\n'), Date.now()).rows;
  const base = [...covering, ...mixedRows(covering, MIXED_ROWS)];
  const waits = sqls.map((s) => windowWait(null, s)).filter((w) => w !== null);
  const longest = waits.sort((a, b) => b.waitMs - a.waitMs)[0] ?? null;
  const wanted = Math.min(Math.max(0, ...waits.map((w) => w.rows)), 1_000);
  const rows = [...base];
  for (let i = 0; rows.length < wanted && base.length; i += 1) rows.push(base[i % base.length]);
  const tumbling = sqls.map((s) => /\btumblingwindow\s*\(\s*'ss'\s*,\s*(\d+)/i.exec(s)).filter((m) => m !== null);
  const tumblingSeconds = tumbling.length ? Math.max(...tumbling.map((m) => Number(m[1]))) : null;
  return { rows, window: longest?.label ?? null, waitMs: longest?.waitMs ?? 0, tumblingSeconds };
}

/** At most this many rows that mix every column's values (on top of the covering rows). */
const MIXED_ROWS = 64;
const SPREAD = 7_919;

/**
 * Rows that combine each column's sample values with every other's (in mixed radix, thinned to
 * `cap`): the covering rows give a group key the same values each time, so avg, min and max of a
 * group would agree, and an output comparison could not tell them apart.
 */
export function mixedRows(rows: readonly SampleRow[], cap: number): SampleRow[] {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const values = keys.map((k) => dedupeValues(rows.map((r) => r[k])));
  const total = values.reduce((n, v) => n * v.length, 1);
  // Past the cap, indices spread by a prime step (a plain stride could be a multiple of one
  // column's count and never vary that column).
  const indices = Array.from({ length: Math.min(total, cap) }, (_, i) => (total <= cap ? i : (i * SPREAD) % total));
  const out: SampleRow[] = [];
  for (const index of indices) {
    let rest = index;
    const row: SampleRow = {};
    keys.forEach((k, i) => {
      row[k] = values[i][rest % values[i].length];
      rest = Math.floor(rest / values[i].length);
    });
    out.push(row);
  }
  return out;
}

function dedupeValues(list: unknown[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const v of list) seen.set(JSON.stringify(v) ?? 'undefined', v);
  return [...seen.values()];
}

/**
 * The engine's tumbling windows start at multiples of their length since the epoch (its
 * `window_start_secs`): when the current one closes too soon for the rows to fit, wait for the
 * next, so every row falls in one window for every query.
 */
async function alignToWindow(seconds: number | null, deadline: number): Promise<void> {
  if (!seconds) return;
  const ms = seconds * 1_000;
  const left = ms - (Date.now() % ms);
  const needed = Math.min(3_000, ms / 2);
  if (left < needed && Date.now() + left + 200 < deadline) await sleep(left + 200);
}

async function collect(mqtt: MqttClient, topics: string[]): Promise<Map<string, Record<string, unknown>[]>> {
  const received = new Map<string, Record<string, unknown>[]>(topics.map((t) => [t, []]));
  mqtt.on('message', (topic, payload) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload.toString('utf8'));
    } catch {
      parsed = { unparsable_output: payload.toString('utf8') }; // kept, so a comparison sees it
    }
    const rows = Array.isArray(parsed) ? parsed : [parsed];
    received.get(topic)?.push(...(rows as Record<string, unknown>[]));
  });
  await mqtt.subscribeAsync(topics, { qos: 0 });
  return received;
}

const kindOf = (p: ProcessorStats) => /^Physical([A-Za-z]+)/.exec(p.processor_id)?.[1] ?? '';

/** Messages the source took (a warm-up probe counts as one). */
function sourceMessages(stats: readonly ProcessorStats[]): number {
  return stats.filter((p) => kindOf(p) === 'DataSource').reduce((n, p) => n + p.stats.records_out, 0);
}

/** Rows the decoder made of them (a probe makes none). */
function decodedRows(stats: readonly ProcessorStats[]): number {
  return stats.filter((p) => kindOf(p) === 'Decoder').reduce((n, p) => n + p.stats.records_out, 0);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
