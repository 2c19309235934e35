import type { ProcessorStats } from '../../manager-client';

/** What a running pipeline's counters say, read the way the dry run decides on them. */
export interface StatsReading {
  /** Rows the source took from the input topic. */
  rowsIn: number;
  /** Rows that reached the encoder (the pipeline's output, before any empty-batch handling). */
  rowsOut: number;
  /** The first processor of the query itself (filter, projection, aggregation) that failed on rows. */
  runtimeError: { processor: string; count: number; lastError: string } | null;
  /** The source's own error (it could not reach the broker, …): nothing about the candidate. */
  sourceError: string | null;
}

const kindOf = (id: string) => /^Physical([A-Za-z]+)/.exec(id)?.[1] ?? id;

/**
 * Reads `GET /pipelines/:id/stats`. Rows out are what the encoder received: the recorded runs
 * show the encoder emitting more messages than rows when empty batches are published (`[]`).
 * Source, decoder and sink errors are the plumbing's (recorded: a source that cannot connect
 * counts errors while no row ever arrives); errors anywhere else are the query failing on rows.
 */
export function readStats(stats: readonly ProcessorStats[]): StatsReading {
  const of = (kind: string) => stats.filter((p) => kindOf(p.processor_id) === kind);
  const sum = (list: ProcessorStats[], field: 'records_in' | 'records_out') =>
    list.reduce((n, p) => n + p.stats[field], 0);
  // `PhysicalStreamingEncoder` when the projection is folded into the encoder.
  const encoders = stats.filter((p) => kindOf(p.processor_id).endsWith('Encoder'));
  const plumbing = new Set(['DataSource', 'Decoder', 'DataSink', 'ProcessTimeWatermark', 'EmptySuppress', 'Barrier']);
  const failed = stats
    .filter((p) => !plumbing.has(kindOf(p.processor_id)) && !kindOf(p.processor_id).endsWith('Encoder'))
    .filter((p) => p.stats.error_count > 0)
    .sort((a, b) => processorIndex(a) - processorIndex(b))[0];
  const source = [...of('DataSource'), ...of('Decoder')].find((p) => p.stats.last_error);
  return {
    rowsIn: sum(of('DataSource'), 'records_out'),
    rowsOut: encoders.length ? sum(encoders, 'records_in') : sum(of('DataSink'), 'records_in'),
    runtimeError: failed
      ? { processor: failed.processor_id, count: failed.stats.error_count, lastError: failed.stats.last_error ?? '' }
      : null,
    sourceError: source?.stats.last_error ?? null,
  };
}

/** `PhysicalFilter_5` → 5: the plan's order, so the first failing step is named. */
function processorIndex(p: ProcessorStats): number {
  return Number(/_(\d+)/.exec(p.processor_id)?.[1] ?? 0);
}
