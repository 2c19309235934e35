import type { Column } from '@nl2p/envelope';
import { ManagerError, type ManagerClient } from '../../manager-client';
import type { DryRunReport, DryRunRequest } from '../../port';
import { MqttFeed } from './mqtt-feed';
import type { SampleRow } from './plan-eval';
import { sampleRows } from './sample-rows';
import { readStats, type StatsReading } from './stats';
import { windowWait, type WindowWait } from './window-wait';

export interface DryRunOptions {
  /** Everything (setup, feeding, waiting, deleting) within this long. */
  limitMs: number;
  /** The broker both the product and the engine reach; default: the source stream's own. */
  brokerUrl?: string;
  /** Between two reads of the counters. */
  pollMs?: number;
}

/** Time the source gets to subscribe (the first row is resent until it arrives). */
const SUBSCRIBE_MS = 5_000;

/**
 * Runs a candidate on sample rows: a temporary MQTT stream with the source's columns on a
 * temporary topic, a temporary pipeline with the candidate's SQL reading it (a `nop` sink: the
 * counters say what came out), started, fed, read, and both deleted in a `finally`.
 */
export class VelofluxDryRun {
  constructor(
    private readonly client: ManagerClient,
    private readonly options: DryRunOptions,
  ) {}

  async run(req: DryRunRequest): Promise<DryRunReport> {
    const started = Date.now();
    const deadline = started + this.options.limitMs;
    const wait = windowWait(req.plan, req.sql);
    const report = (r: Partial<DryRunReport>): DryRunReport => ({
      outcome: 'ran', rowsFed: 0, rowsOut: 0, satisfying: null, error: null, windowCut: null,
      window: wait?.label ?? null, ...r, elapsedMs: Date.now() - started,
    }); // prettier-ignore
    const source = await this.client.describeStream(req.stream);
    const broker = this.options.brokerUrl ?? brokerOf(source.spec);
    if (!broker) {
      return report({ outcome: 'not_run', error: `stream ${req.stream} is not read from MQTT and no broker is set for dry runs (VELOFLUX_DRY_RUN_BROKER_URL)` });
    } // prettier-ignore
    const samples = sampleRows(source.spec.schema.columns, req.plan, req.sql, Date.now());
    const rows = fillCountWindow(samples.rows, wait);
    await this.removeLeftovers(req.id);
    try {
      await this.setUp(req, source.spec.schema.columns, broker);
      const fed = await this.feed(req.id, broker, rows, deadline);
      if ('error' in fed) return report({ outcome: 'not_run', error: fed.error });
      const result = await this.watch(req.id, rows.length, wait, deadline);
      const cut = wait && result.cut ? { window: wait.label, waitMs: wait.waitMs, limitMs: this.options.limitMs } : null;
      const base = { rowsFed: result.stats.rowsIn, rowsOut: result.stats.rowsOut, satisfying: samples.satisfying, windowCut: cut };
      const failure = result.stats.runtimeError;
      if (failure) return report({ ...base, outcome: 'runtime_error', error: failure.lastError });
      return report(base);
    } catch (err) {
      if (err instanceof ManagerError && !err.unavailable) return report({ outcome: 'not_run', error: err.message });
      throw err;
    } finally {
      await this.removeLeftovers(req.id).catch(() => undefined); // the janitor sweeps what is left
    }
  } // prettier-ignore

  private async setUp(req: DryRunRequest, columns: Column[], broker: string): Promise<void> {
    await this.client.createStream({
      name: req.id,
      type: 'mqtt',
      schema: { type: 'json', props: { columns } },
      props: { broker_url: broker, topic: req.id, qos: 0 },
      decoder: { type: 'json', props: {} },
    });
    await this.client.createPipeline({
      id: req.id,
      sql: renameSource(req.sql, req.stream, req.id),
      sinks: [{ type: 'nop', output: { mode: 'full', omit_if_empty: true } }],
      options: { eventtime: { enabled: false } },
    });
    await this.client.startPipeline(req.id);
  }

  /** The first row until the source has it (it subscribes some time after start), then the rest. */
  private async feed(id: string, broker: string, rows: SampleRow[], deadline: number): Promise<{ ok: true } | { error: string }> {
    let feed: MqttFeed;
    try {
      feed = await MqttFeed.connect(broker, Math.min(SUBSCRIBE_MS, deadline - Date.now()));
    } catch (err) {
      return { error: `the dry run could not reach the MQTT broker ${broker}: ${(err as Error).message}` };
    }
    try {
      const until = Math.min(deadline, Date.now() + SUBSCRIBE_MS);
      let stats = await this.stats(id);
      while (stats.rowsIn === 0 && Date.now() < until) {
        await feed.publish(id, rows.slice(0, 1));
        await sleep(this.options.pollMs ?? 200);
        stats = await this.stats(id);
      }
      if (stats.rowsIn === 0) {
        return { error: `the engine's source received no row from ${broker}${stats.sourceError ? `: ${stats.sourceError}` : ''}` };
      }
      await feed.publish(id, rows.slice(1));
      return { ok: true };
    } finally {
      await feed.close();
    }
  } // prettier-ignore

  /**
   * Reads the counters until the query fails on a row, or every row went through (and, with a
   * window, output came or its flush time passed), or the deadline.
   */
  private async watch(id: string, sent: number, wait: WindowWait | null, deadline: number): Promise<{ stats: StatsReading; cut: boolean }> {
    const fedAt = Date.now();
    const flushBy = fedAt + (wait?.waitMs ?? 0);
    // Leave time for the deletes: the deadline covers them too.
    const stopBy = deadline - 1_000;
    let stats = await this.stats(id);
    let previous = '';
    for (;;) {
      if (stats.runtimeError) return { stats, cut: false };
      const settled = JSON.stringify(stats) === previous && stats.rowsIn >= sent;
      if (settled && (!wait || stats.rowsOut > 0 || Date.now() >= flushBy)) return { stats, cut: false };
      // A flush it cannot wait for: once every row went through, run-time errors have shown.
      if (settled && flushBy > stopBy) return { stats, cut: true };
      if (Date.now() >= stopBy) return { stats, cut: !!wait && Date.now() < flushBy && stats.rowsOut === 0 };
      previous = JSON.stringify(stats);
      await sleep(this.options.pollMs ?? 200);
      stats = await this.stats(id);
    }
  } // prettier-ignore

  private async stats(id: string): Promise<StatsReading> {
    return readStats(await this.client.pipelineStats(id));
  }

  /** The pipeline first (a loaded pipeline holds its stream), then the stream; missing is fine. */
  private async removeLeftovers(id: string): Promise<void> {
    await removeDryRun(this.client, id);
  }
}

/** Deletes a dry run's pipeline and stream (both go by `id`); what is already gone is fine. */
export async function removeDryRun(client: ManagerClient, id: string): Promise<void> {
  await client.deletePipeline(id).catch(ignoreMissing);
  await client.deleteStream(id).catch(ignoreMissing);
}

function ignoreMissing(err: unknown): void {
  if (err instanceof ManagerError && (err.status === 404 || /not found/.test(err.body))) return;
  throw err;
}

function brokerOf(spec: { type: string; props: Record<string, unknown> }): string | null {
  const url = spec.props['broker_url'];
  return spec.type === 'mqtt' && typeof url === 'string' && url ? url : null;
}

/** A count window emits once it holds its rows: enough copies are sent to fill one. */
function fillCountWindow(rows: SampleRow[], wait: WindowWait | null): SampleRow[] {
  const wanted = Math.min(wait?.rows ?? 0, 1_000);
  const out = [...rows];
  for (let i = 0; out.length < wanted && rows.length; i += 1) out.push(rows[i % rows.length]);
  return out;
}

/**
 * The SQL reading `to` instead of `from`: the name after FROM and as a qualifier (`from.col`),
 * outside string literals. The stream is never quoted in FROM (the local check refuses it).
 */
export function renameSource(sql: string, from: string, to: string): string {
  const name = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return sql
    .split(/('(?:[^']|'')*')/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(new RegExp(`(\\bFROM\\s+)${name}\\b`, 'gi'), `$1${to}`)
            .replace(new RegExp(`(^|[^\\w.>])${name}\\.(?=[A-Za-z_\`"])`, 'g'), `$1${to}.`),
    )
    .join('');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
