import { TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { ManagerClient, SampleOutputs, type QueryOutput } from '@nl2p/engine';
import { compareResults, type ResultSet } from './results';

/** Output match of one item: true or false when measured, null (and why) when not. */
export interface OutputVerdict {
  match: boolean | null;
  detail: string | null;
  /** The dry run's figures, when it ran: rows fed, rows each side emitted, time taken. */
  figures: { rows_fed: number; reference_rows: number; candidate_rows: number; elapsed_ms: number } | null;
}

/** Judges an accepted SQL by its output on sample rows against the reference SQL's. */
export interface OutputJudge {
  judge(itemId: string, stream: string, referenceSql: string, candidateSql: string): Promise<OutputVerdict>;
}

/** A judge that measures nothing and says why (the fake Manager: its runtime computes no values). */
export function outputNotMeasured(reason: string): OutputJudge {
  return { judge: () => Promise.resolve({ match: null, detail: `not measured: ${reason}`, figures: null }) };
}

/**
 * Output match on the engine itself: the reference and the accepted SQL run side by side on the
 * same sample rows (one input topic feeds both at the same instant, so processing-time windows
 * cut both alike), and their outputs are compared as multisets, with the DuckDB set's
 * comparison (column names ignored, each reference column answered by a candidate column, numbers
 * at 2 decimals). Not measured, and said so, when the rows could not be fed, the reference failed
 * or emitted nothing (a match would be empty), a window's flush could not be awaited, or the
 * engine counted output that its sink never published (a fake runtime computes no values).
 */
export class EngineOutputJudge implements OutputJudge {
  private readonly runner: SampleOutputs;

  constructor(managerUrl: string, brokerUrl: string, limitMs = 150_000) {
    this.runner = new SampleOutputs(new ManagerClient({ baseUrl: managerUrl }), { brokerUrl, limitMs });
  }

  async judge(itemId: string, stream: string, referenceSql: string, candidateSql: string): Promise<OutputVerdict> {
    const prefix = `${TMP_PIPELINE_PREFIX}evalout_${itemId.replace(/[^a-z0-9]/gi, '_')}`;
    const report = await this.runner.run({ stream, sqls: [referenceSql, candidateSql], prefix });
    if (report.outcome === 'not_run') return { match: null, detail: `not measured: ${report.error}`, figures: null };
    const [gold, pred] = report.outputs;
    const figures = {
      rows_fed: report.rowsFed,
      reference_rows: gold.rows.length,
      candidate_rows: pred.rows.length,
      elapsed_ms: report.elapsedMs,
    };
    return { ...verdictOf(gold, pred, report.windowCut ? report.window : null), figures };
  }
}

/** The comparison and its exceptions, in the order they make a result meaningless. */
export function verdictOf(
  gold: QueryOutput,
  pred: QueryOutput,
  cutWindow: string | null,
): Omit<OutputVerdict, 'figures'> {
  const unpublished = [gold, pred].find((q) => q.rowsOut > 0 && q.rows.length === 0);
  if (gold.runtimeError) return notMeasured(`the reference failed on sample rows: ${gold.runtimeError}`);
  if (pred.runtimeError) return { match: false, detail: `failed on sample rows: ${pred.runtimeError}` };
  if (unpublished) {
    return notMeasured(`the engine counted ${unpublished.rowsOut} row(s) out but its sink published none (a runtime that computes no values)`);
  } // prettier-ignore
  if (gold.rowsIn === 0 || pred.rowsIn === 0) return notMeasured('the sample rows did not reach both pipelines');
  if (cutWindow) return notMeasured(`${cutWindow} could not be waited for within the time limit`);
  if (gold.rows.length === 0) {
    return pred.rows.length
      ? { match: false, detail: `emitted ${pred.rows.length} row(s) where the reference emitted none` }
      : notMeasured('the reference emitted nothing on the sample rows (an empty match says nothing)');
  }
  const m = compareResults(resultSet(gold.rows), resultSet(pred.rows), false);
  return { match: m.match, detail: m.match ? null : m.detail };
}

const notMeasured = (why: string) => ({ match: null, detail: `not measured: ${why}` });

/** Output rows as a result set: the union of their keys, sorted (the engine sorts JSON keys anyway). */
export function resultSet(rows: readonly Record<string, unknown>[]): ResultSet {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))].sort();
  return { columns, rows: rows.map((r) => columns.map((c) => r[c] ?? null)) };
}
