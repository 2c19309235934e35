import type { ScanNode } from '@nl2p/execution-dag';
import { trace, SpanStatusCode } from '@opentelemetry/api';
import { QueryTimeLimitError } from '../port';
import type { SqlSource } from './sql-sources';
import type { PartRows } from './combine-tables';

/** What one scan did on its source: shown in the view and the trace. */
export interface PartReport {
  id: string;
  source: string;
  engine: string;
  sql: string;
  /** The source engine's own plan of the part. */
  explain: string;
  rows: number;
  /** The part returned more rows than its limit: nothing is joined from it. */
  capped: boolean;
  elapsedMs: number;
}

/** A source that could not run its part: the turn fails naming it. */
export class SourcePartError extends Error {
  override readonly name = 'SourcePartError';
  constructor(
    readonly source: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The turn was cancelled: every part stops and nothing is presented. */
export class PartsCancelledError extends Error {
  override readonly name = 'PartsCancelledError';
}

/**
 * One scan on its own source: compiled by that engine's compiler, then validated as every SQL
 * draft is (the adapter's read-only guard on the engine's parser, `EXPLAIN`, a read-only run with
 * the row and time limits), in a span of its own naming the source.
 */
export async function runPart(
  scan: ScanNode,
  source: SqlSource,
  tables: Record<string, import('@nl2p/envelope').Column[]>,
  tmpId: string,
  signal?: AbortSignal,
): Promise<{ report: PartReport; rows: PartRows }> {
  return trace.getTracer('nl2pipeline').startActiveSpan(`part ${scan.id}`, async (span) => {
    span.setAttributes({ 'nl2p.source': source.name, 'nl2p.engine': source.engine, 'nl2p.part': scan.id });
    const started = performance.now();
    try {
      if (signal?.aborted) throw new PartsCancelledError('the turn was cancelled');
      const { sql } = source.compiler.compile(scan.plan, tables);
      const verdict = await abortable(source.target.validate(sql, tmpId), signal);
      if (!verdict.ok) throw new SourcePartError(source.name, `${source.label} refused the part for source ${source.name}: ${verdict.error}`);
      if (!verdict.preview) {
        throw new SourcePartError(source.name, `the part on source ${source.name} returned no rows to combine: ${verdict.previewError ?? 'no preview'}`);
      }
      const explain = await abortable(source.target.explainSql(sql), signal);
      const preview = verdict.preview;
      const report: PartReport = {
        id: scan.id, source: source.name, engine: source.label, sql, explain,
        rows: preview.rows.length, capped: preview.truncated, elapsedMs: Math.round(performance.now() - started),
      };
      span.setAttributes({ 'nl2p.rows': report.rows, 'nl2p.capped': report.capped });
      return { report, rows: { columns: preview.columns, rows: preview.rows } };
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw asPartError(err, source);
    } finally {
      span.end();
    }
  }); // prettier-ignore
}

function asPartError(err: unknown, source: SqlSource): Error {
  if (err instanceof SourcePartError || err instanceof PartsCancelledError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof QueryTimeLimitError)
    return new SourcePartError(source.name, `the part on source ${source.name} ran past its time limit: ${message}`, { cause: err });
  return new SourcePartError(source.name, `source ${source.name} (${source.label}) could not run its part: ${message}`, { cause: err });
} // prettier-ignore

/** Stops waiting when the turn is cancelled (the part's own time limit ends the query on the engine). */
function abortable<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new PartsCancelledError('the turn was cancelled'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
