import type { Column } from '@nl2p/envelope';
import { localName, scansOf, splitQualified, type ExecutionDag } from '@nl2p/execution-dag';
import { combineParts, type CombineResult } from './combine';
import { keyScansOf, partOfKeyScan } from './key-scans';
import type { PartRows } from './combine-tables';
import { PartsCancelledError, runPart, SourcePartError, type PartReport } from './run-part';
import type { SqlSources } from './sql-sources';

/** The answer of a DAG, or the question it stopped at; parts as far as they ran. */
export type DagOutcome =
  | {
      kind: 'answer';
      parts: PartReport[];
      /** Null when one source answered the whole question (nothing to combine). */
      combine: CombineResult | null;
      columns: string[];
      rows: unknown[][];
      truncated: boolean;
      assumptions: string[];
    }
  | { kind: 'question'; question: string; parts: PartReport[] };

export interface ExecuteOptions {
  /** The turn's temp id (`__nl2pipeline_tmp__…`): SQL targets create nothing under it. */
  tmpId: string;
  /** The turn's cancellation: every part and the combine stop waiting. */
  signal?: AbortSignal;
  /** Rows the combine's result keeps. */
  rowLimit: number;
  timeoutMs: number;
}

/**
 * Runs a DAG: every scan on its own source at once (a failing part stops the others and fails
 * the turn naming its source), then — only when no part reached its row limit — the combine in
 * DuckDB. A part that reached its limit is a question: joining a cut-off part would present a
 * wrong answer as complete.
 */
export async function executeDag(
  dag: ExecutionDag,
  sources: SqlSources,
  tables: Readonly<Record<string, Column[]>>,
  options: ExecuteOptions,
): Promise<DagOutcome> {
  const scans = scansOf(dag);
  const stopAll = new AbortController();
  const onCancel = (): void => stopAll.abort();
  options.signal?.addEventListener('abort', onCancel, { once: true });
  let results;
  try {
    results = await Promise.all(
      scans.map(async (scan) => {
        const source = sources.get(scan.source);
        if (!source) throw new SourcePartError(scan.source, `no source named ${scan.source} is configured`);
        try {
          return await runPart(scan, source, tablesOf(scan.source, tables), options.tmpId, stopAll.signal);
        } catch (err) {
          stopAll.abort();
          throw err;
        }
      }),
    );
  } catch (err) {
    if (options.signal?.aborted) throw new PartsCancelledError('the turn was cancelled', { cause: err });
    throw err;
  } finally {
    options.signal?.removeEventListener('abort', onCancel);
  }
  const parts = results.map((r) => r.report);
  if (scans.length === 1) {
    const only = results[0];
    return { kind: 'answer', parts, combine: null, ...only.rows, truncated: only.report.capped, assumptions: [] };
  }
  const capped = parts.filter((p) => p.capped);
  if (capped.length) return { kind: 'question', question: cappedQuestion(capped, sources.rowLimit), parts };
  const byScan = new Map<string, PartRows>(results.map((r) => [r.report.id, r.rows]));
  const keys = await runKeyScans(dag, sources, tables, options);
  const combined = await combineParts(dag, byScan, options, keys);
  if (combined.kind === 'question') return { ...combined, parts };
  const { result } = combined;
  return {
    kind: 'answer',
    parts,
    combine: result,
    columns: result.columns,
    rows: result.rows,
    truncated: result.truncated,
    assumptions: result.assumptions,
  };
}

/**
 * The unfiltered keys of every filtered part a join reads (`keyScansOf`), by part id: what the
 * key rule is judged on. Read only when the parts ran whole; cancelling the turn stops them too.
 * A key scan past the row limit is left out (a first few keys could match the other side poorly
 * by chance), so that part is judged on its own keys, as before key scans.
 */
async function runKeyScans(
  dag: ExecutionDag,
  sources: SqlSources,
  tables: Readonly<Record<string, Column[]>>,
  options: ExecuteOptions,
): Promise<Map<string, PartRows>> {
  const read = await Promise.all(
    keyScansOf(dag).map(async (scan) => {
      const source = sources.get(scan.source);
      if (!source) throw new SourcePartError(scan.source, `no source named ${scan.source} is configured`);
      const { rows, report } = await runPart(
        scan,
        source,
        tablesOf(scan.source, tables),
        options.tmpId,
        options.signal,
      );
      // Keys past the row limit are only some of them: the part's own keys are judged instead.
      return report.capped ? [] : [[partOfKeyScan(scan.id), rows] as const];
    }),
  );
  return new Map(read.flat());
}

/** The source's tables under their own names, as its compiler reads them. */
function tablesOf(source: string, tables: Readonly<Record<string, Column[]>>): Record<string, Column[]> {
  return Object.fromEntries(
    Object.entries(tables)
      .filter(([name]) => splitQualified(name)?.source === source)
      .map(([name, columns]) => [localName(name), columns]),
  );
}

function cappedQuestion(capped: PartReport[], rowLimit: number): string {
  const which = capped.map((p) => `the part on ${p.source}`).join(' and ');
  return `${which[0]?.toUpperCase()}${which.slice(1)} returned more than ${rowLimit} rows (its limit), so nothing was joined: joining part of it would give a wrong answer. Could you narrow the request (a time range, a filter on one of its tables)?`;
}
