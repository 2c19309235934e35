import { DuckDBInstance, StatementType } from '@duckdb/node-api';
import type { Column } from '@nl2p/envelope';
import { combinePlan, combineTables, scansOf, type ExecutionDag } from '@nl2p/execution-dag';
import { checkPlan, type ColumnRef, type QueryPlan } from '@nl2p/query-plan';
import { duckdbCompiler } from '../duckdb/compiler';
import { previewValueConverter } from '../duckdb/duckdb-values';
import { runSingle } from '../duckdb/single-statement';
import { jsonSafe } from '../sql/json-values';
import { previewQuery } from '../sql/read-only-guard';
import { registerPart, type PartRows } from './combine-tables';
import { describeKeyRule, MIN_KEY_MATCH, reconcileKeys } from './join-keys';

export interface CombineResult {
  sql: string;
  columns: string[];
  rows: unknown[][];
  /** More rows than `rowLimit` came out of the combine; `rows` holds the first ones. */
  truncated: boolean;
  /** How join keys were reconciled, one sentence per join pair that needed a rule. */
  assumptions: string[];
  elapsedMs: number;
}

export type CombineOutcome = { kind: 'combined'; result: CombineResult } | { kind: 'question'; question: string };

/**
 * Joins the scans' results and runs the post steps in a fresh in-process DuckDB: each part is
 * registered as a table through the appender, join keys are reconciled by rule (or the turn
 * asks), and the combine plan is compiled by DuckDB's own plan compiler — the SQL shown is the
 * SQL that ran. The database lives only for this call, with no file or network access.
 */
export async function combineParts(
  dag: ExecutionDag,
  parts: ReadonlyMap<string, PartRows>,
  options: { rowLimit: number; timeoutMs: number; signal?: AbortSignal },
  /** A filtered part's keys as its source holds them, unfiltered (`keyScansOf`): what its key rule is judged on. */
  unfilteredKeys: ReadonlyMap<string, PartRows> = new Map(),
): Promise<CombineOutcome> {
  const started = performance.now();
  const tables = combineTables(dag);
  const registered = new Map(parts);
  const keyed = reconcileJoinKeys(combinePlan(dag), tables, registered, unfilteredKeys);
  if ('question' in keyed) return keyed;
  const checked = checkPlan(keyed.plan, tables);
  if (!checked.ok) throw new Error(`the combine plan does not check: ${checked.errors.join('; ')}`);
  const { sql } = duckdbCompiler.compile(checked.plan, tables);
  const instance = await DuckDBInstance.create(':memory:', {
    enable_external_access: 'false',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
  });
  const connection = await instance.connect();
  const stop = (): void => connection.interrupt();
  const timer = setTimeout(stop, options.timeoutMs);
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    for (const scan of scansOf(dag)) {
      await registerPart(connection, scan.id, tables[scan.id] ?? [], registered.get(scan.id) ?? { columns: [], rows: [] });
    }
    const reader = await runSingle(connection, previewQuery(sql, options.rowLimit + 1), StatementType.SELECT);
    const rows = reader.convertRows(previewValueConverter).map((r) => r.map(jsonSafe));
    return {
      kind: 'combined',
      result: {
        sql,
        columns: reader.columnNames(),
        rows: rows.slice(0, options.rowLimit),
        truncated: rows.length > options.rowLimit,
        assumptions: keyed.assumptions,
        elapsedMs: Math.round(performance.now() - started),
      },
    };
  } catch (err) {
    if (options.signal?.aborted) throw new Error('the turn was cancelled while combining', { cause: err });
    throw new Error(`combining the parts in DuckDB failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
    connection.closeSync();
    instance.closeSync();
  }
} // prettier-ignore

/**
 * For each join pair, the rule under which its two sides' values match best; a pair needing a
 * rule joins on added key columns holding the normalised values (registered with the parts), and
 * the rule becomes an assumption. A pair matching less than half of either side is a question.
 * A filtered part is judged on its table's unfiltered keys when given: its filter, not its keys,
 * may be why few of its rows have a partner.
 */
function reconcileJoinKeys(
  plan: QueryPlan,
  tables: Record<string, Column[]>,
  parts: Map<string, PartRows>,
  unfilteredKeys: ReadonlyMap<string, PartRows>,
): { plan: QueryPlan; assumptions: string[] } | { kind: 'question'; question: string } {
  const assumptions: string[] = [];
  const valuesOf = (ref: ColumnRef): unknown[] => {
    const part = unfilteredKeys.get(ref.table ?? '') ?? parts.get(ref.table ?? '');
    const at = part?.columns.indexOf(ref.column) ?? -1;
    return part && at >= 0 ? part.rows.map((r) => r[at]) : [];
  };
  const joins = [];
  for (const join of plan.joins) {
    const on = [];
    for (const pair of join.on) {
      const right = { ...pair.right, table: pair.right.table ?? join.table };
      const verdict = reconcileKeys(valuesOf(pair.left), valuesOf(right));
      const names = `${pair.left.table}.${pair.left.column} and ${right.table}.${right.column}`;
      if (verdict.matchRate !== null && verdict.matchRate < MIN_KEY_MATCH) {
        const share = Math.round(verdict.matchRate * 100);
        return {
          kind: 'question',
          question: `The join keys ${names} match for only ${share} % of the rows, even compared as one type, trimmed and ignoring case; joining on them would drop most of the data. Are these the right keys, or is there another column that links them?`,
        };
      }
      if (verdict.rule === 'exact') {
        on.push(pair);
        continue;
      }
      on.push({ left: addKeyColumn(pair.left, verdict.normalise, tables, parts), right: addKeyColumn(right, verdict.normalise, tables, parts) });
      const sentence = describeKeyRule(verdict.rule, `${pair.left.table}.${pair.left.column}`, `${right.table}.${right.column}`, verdict.matchRate);
      if (sentence) assumptions.push(sentence);
    }
    joins.push({ ...join, on });
  }
  return { plan: { ...plan, joins }, assumptions };
} // prettier-ignore

/** Adds `<column>_key` (normalised text) to a part and its combine table; returns the new column's ref. */
function addKeyColumn(
  ref: ColumnRef,
  normalise: (v: unknown) => string | null,
  tables: Record<string, Column[]>,
  parts: Map<string, PartRows>,
): ColumnRef {
  const table = ref.table ?? '';
  const part = parts.get(table);
  const columns = tables[table];
  if (!part || !columns) throw new Error(`no part ${table} to join`);
  let name = `${ref.column}_key`;
  for (let i = 2; columns.some((c) => c.name === name); i++) name = `${ref.column}_key${i}`;
  const at = part.columns.indexOf(ref.column);
  parts.set(table, {
    columns: [...part.columns, name],
    rows: part.rows.map((r) => [...r, normalise(r[at])]),
  });
  columns.push({ name, data_type: 'varchar' });
  return { table, column: name };
}
