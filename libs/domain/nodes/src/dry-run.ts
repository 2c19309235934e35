import { dryRunIdOf, type Envelope } from '@nl2p/envelope';
import type { DryRunReport, EngineTarget } from '@nl2p/engine';

/** What the dry run decides for the turn: a failure to repair, or sentences for the person. */
export type DryRunVerdict = { failure: string } | { notes: string[] };

/**
 * Runs the accepted candidate on sample rows when the target can (veloFlux with dry runs on).
 * Null when there is nothing to run it on (no stream chosen) or the target has no dry run.
 */
export async function dryRunCandidate(engine: EngineTarget, e: Envelope, sql: string): Promise<DryRunVerdict | null> {
  const stream = e.stream_schema?.name ?? e.active_stream;
  if (!engine.dryRun || !stream) return null;
  const report = await engine.dryRun({ sql, stream, plan: e.draft.plan, id: dryRunIdOf(e) });
  return judge(report);
}

/**
 * A run-time error is the candidate's failure, in the engine's own words; rows in and none out
 * on rows built to meet the conditions is a warning; a window that could not be waited for, or a
 * dry run that could not feed rows, is said plainly.
 */
export function judge(r: DryRunReport): DryRunVerdict {
  const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
  if (r.outcome === 'runtime_error') {
    return { failure: `the engine accepted the pipeline, but it failed on sample rows when run: ${r.error ?? ''}` };
  }
  if (r.outcome === 'not_run') return { notes: [`Not run on sample rows: ${r.error ?? 'unknown reason'}.`] };
  const notes: string[] = [];
  if (r.windowCut) {
    notes.push(
      `On sample rows this pipeline ran without a run-time error, but its output was not checked: ${r.windowCut.window} ` +
        `can take up to ${seconds(r.windowCut.waitMs)} to flush, more than the dry run's ${seconds(r.windowCut.limitMs)} limit.`,
    );
  } else if (r.rowsFed > 0 && r.rowsOut === 0 && (r.satisfying ?? 0) > 0) {
    const waited = r.window ? ` after waiting for ${r.window} to flush` : '';
    notes.push(
      `On sample rows this pipeline emitted nothing: ${r.rowsFed} rows in, ${r.satisfying} of them meeting its conditions, ` +
        `none out${waited}. Check the conditions and the grouping before applying it.`,
    );
  }
  return { notes };
}
