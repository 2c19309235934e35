import { connectAsync, type MqttClient } from 'mqtt';
import { MissingColumn, RuntimeRowError, wherePredicate, type Predicate, type Row } from './fake-eval';
import type { PlannedSql } from './fake-sql';

interface Counter {
  records_in: number;
  records_out: number;
  error_count: number;
  last_error: string | null;
}

type Stage = 'source' | 'decoder' | 'watermark' | 'filter' | 'aggregation' | 'project' | 'encoder' | 'sink';

const STAGE_OF: [RegExp, Stage][] = [
  [/^PhysicalDataSource_/, 'source'],
  [/^PhysicalDecoder_/, 'decoder'],
  [/^PhysicalProcessTimeWatermark_/, 'watermark'],
  [/^PhysicalFilter_/, 'filter'],
  [/^Physical(Streaming)?Aggregation_/, 'aggregation'],
  [/^PhysicalProject_/, 'project'],
  [/^Physical(Streaming)?Encoder_/, 'encoder'],
  [/^PhysicalDataSink_/, 'sink'],
];

/**
 * A started pipeline of the fake Manager, as the live engine behaves when fed rows over MQTT: the
 * source subscribes to its stream's topic on the stream's broker; WHERE runs on each row without
 * an aggregation, and after it with one, on the aggregated row, which holds the group's last row
 * (the live `WHERE humidity > 50 … tumblingwindow` emitted nothing: both groups' last rows failed
 * it; `WHERE amount > 10 GROUP BY region` without a window emitted the rows that met it);
 * BETWEEN and IN fail on every row (stats `error_count`, `last_error`); an aggregation without a
 * window emits a row per input row, a tumbling window each group when it closes (the engine may
 * take up to one more window length), a sliding or state window per row, a count window every N
 * rows; count(DISTINCT …) takes rows and never emits, with no error. HAVING and the aggregate
 * values themselves are not computed: the counters are what the dry run reads.
 */
export class FakeRuntime {
  private readonly counters = new Map<string, Counter>();
  private readonly stageIds = new Map<Stage, string[]>();
  private readonly predicate: Predicate | null;
  private readonly aggregated: boolean;
  private readonly distinctAggregate: boolean;
  private groups = new Map<string, Row>();
  private windowRows = 0;
  private client: MqttClient | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    sql: string,
    private readonly plan: PlannedSql,
    processorIds: string[],
  ) {
    for (const id of processorIds) {
      this.counters.set(id, { records_in: 0, records_out: 0, error_count: 0, last_error: null });
      const stage = STAGE_OF.find(([re]) => re.test(id))?.[1];
      if (stage) this.stageIds.set(stage, [...(this.stageIds.get(stage) ?? []), id]);
    }
    this.predicate = wherePredicate(sql);
    this.aggregated = plan.aggregates.length > 0;
    this.distinctAggregate = /\b\w+\s*\(\s*distinct\b/i.test(sql);
  }

  /** Subscribes to the stream's topic; a broker it cannot reach is the source's error, as live. */
  async start(brokerUrl: string | undefined, topic: string | undefined): Promise<void> {
    if (!brokerUrl || !topic) return;
    try {
      const client = await connectAsync(brokerUrl.replace(/^tcp:\/\//i, 'mqtt://'), {
        reconnectPeriod: 0,
        connectTimeout: 2_000,
      });
      this.client = client;
      client.on('message', (_topic, payload) => this.accept(payload));
      await client.subscribeAsync(topic, { qos: 0 });
    } catch (err) {
      this.count('source', 0, 0, `connector error: connection error: ${(err as Error).message}`);
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    await client?.endAsync(true).catch(() => undefined);
  }

  stats(): { processor_id: string; stats: Counter }[] {
    return [...this.counters.entries()].map(([processor_id, stats]) => ({ processor_id, stats: { ...stats } }));
  }

  private accept(payload: Buffer): void {
    this.count('source', 1, 1);
    let parsed: Row | Row[];
    try {
      parsed = JSON.parse(payload.toString('utf8')) as Row | Row[];
    } catch (err) {
      this.count('decoder', 1, 0, `decode error: invalid json: ${(err as Error).message}`);
      return;
    }
    // As the engine's json decoder: an array is a batch of rows (`[]` none), an object one row.
    const rows = Array.isArray(parsed) ? parsed : [parsed];
    this.count('decoder', 1, rows.length);
    for (const row of rows) this.process(row);
  }

  private process(row: Row): void {
    if (this.plan.window) this.count('watermark', 1, 1);
    if (!this.aggregated) {
      if (this.filter(row)) this.emit(1);
      return;
    }
    this.aggregate(row);
  }

  private aggregate(row: Row): void {
    this.count('aggregation', 1, 0);
    if (this.distinctAggregate) return;
    const keys = Object.fromEntries(this.plan.groupKeys.map((k) => [k, row[k]]));
    const kind = this.plan.window?.kind;
    // The aggregated row keeps the group's last row values: the real engine's WHERE after the
    // aggregation reads them (a91221e: `WHERE amount > 10 GROUP BY region` emitted 8 of 16 rows).
    if (!kind || kind === 'sliding' || kind === 'state') return this.afterAggregation([row]);
    this.groups.set(JSON.stringify(keys), row);
    if (kind === 'count') {
      this.windowRows += 1;
      if (this.windowRows >= Number(this.plan.window?.args[0] ?? 1)) this.flush();
      return;
    }
    if (!this.timer) {
      const ms = Number(this.plan.window?.args[1] ?? 1) * 1_000;
      this.timer = setTimeout(() => this.flush(), ms - (Date.now() % ms));
    }
  }

  private flush(): void {
    this.timer = null;
    this.windowRows = 0;
    const groups = [...this.groups.values()];
    this.groups = new Map();
    this.afterAggregation(groups);
  }

  private afterAggregation(rows: Row[]): void {
    for (const id of this.stageIds.get('aggregation') ?? []) this.bump(id, 0, rows.length);
    const passed = rows.filter((r) => this.filter(r)).length;
    if (passed) this.emit(passed);
  }

  /** The WHERE on one row; a row it cannot evaluate is an error, a name it lacks drops it. */
  private filter(row: Row): boolean {
    if (!this.predicate) return true;
    try {
      const ok = this.predicate(row) === true;
      this.count('filter', 1, ok ? 1 : 0);
      return ok;
    } catch (err) {
      if (err instanceof MissingColumn) {
        this.count('filter', 1, 0);
        return false;
      }
      if (err instanceof RuntimeRowError) {
        this.count('filter', 1, 0, err.message);
        return false;
      }
      throw err;
    }
  }

  /** Rows through the projection to the encoder; one batch (message) to the sink. */
  private emit(rows: number): void {
    this.count('project', rows, rows);
    this.count('encoder', rows, 1);
    this.count('sink', 1, 1);
  }

  private count(stage: Stage, inn: number, out: number, error?: string): void {
    for (const id of this.stageIds.get(stage) ?? []) this.bump(id, inn, out, error);
  }

  private bump(id: string, inn: number, out: number, error?: string): void {
    const c = this.counters.get(id);
    if (!c) return;
    c.records_in += inn;
    c.records_out += out;
    if (error) {
      c.error_count += 1;
      c.last_error = error;
    }
  }
}
