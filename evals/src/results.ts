import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { checkDuckDbSelect } from '@nl2p/engine';

/** A query's result as the eval compares it. */
export interface ResultSet {
  columns: string[];
  rows: unknown[][];
}

/**
 * Runs gold and predicted SQL on the demo database, read-only: the file is opened with
 * `access_mode=READ_ONLY`, external access off, and the text must pass the DuckDB target's own
 * read-only check first (a predicted query is model output).
 */
export class ResultDb {
  private instance: Promise<DuckDBInstance> | null = null;

  constructor(
    private readonly path: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async run(sql: string): Promise<ResultSet> {
    const verdict = await checkDuckDbSelect(sql);
    if (!verdict.ok) throw new Error(`refused: ${verdict.reason}`);
    this.instance ??= DuckDBInstance.create(this.path, {
      access_mode: 'READ_ONLY',
      enable_external_access: 'false',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      // One thread: rows that tie on an ORDER BY then come back in the same order on every run, so
      // an answer does not flip between match and miss from one eval run to the next.
      threads: '1',
    });
    const connection: DuckDBConnection = await (await this.instance).connect();
    const timer = setTimeout(() => connection.interrupt(), this.timeoutMs);
    try {
      const reader = await connection.runAndReadAll(sql);
      return { columns: reader.columnNames(), rows: reader.getRowsJS() };
    } finally {
      clearTimeout(timer);
      connection.closeSync();
    }
  }

  async close(): Promise<void> {
    const instance = this.instance;
    this.instance = null;
    if (instance) (await instance).closeSync();
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD`, or `YYYY-MM-DD HH:MM:SS` when the time is not midnight (UTC wall clock). */
function timeText(d: Date): string {
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const h = d.getUTCHours();
  const m = d.getUTCMinutes();
  const s = d.getUTCSeconds();
  return h || m || s ? `${day} ${pad(h)}:${pad(m)}:${pad(s)}` : day;
}

const TIMESTAMP_TEXT = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?Z?$/;

/**
 * One value as the comparison sees it. Lenient where the difference is only representation:
 * integers of any width are equal, numbers are compared at 2 decimals, DECIMAL equals DOUBLE,
 * a DATE equals a TIMESTAMP at midnight, and a timestamp equals its `YYYY-MM-DD HH:MM:SS` text.
 */
export function canonical(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return String(value);
    const r = Math.round(value * 100) / 100;
    return String(r === 0 ? 0 : r);
  }
  if (value instanceof Date) return timeText(value);
  if (typeof value === 'string') {
    const t = TIMESTAMP_TEXT.exec(value.trim());
    if (t) return timeText(new Date(`${t[1]}T${t[2] ?? '00'}:${t[3] ?? '00'}:${t[4] ?? '00'}Z`));
    return value;
  }
  if (typeof value === 'boolean') return String(value);
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

export interface Match {
  match: boolean;
  /** Why not, or which predicted column answered each gold column. */
  detail: string;
}

const key = (row: readonly string[]) => JSON.stringify(row);

function sameMultiset(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const sa = [...a].sort();
  const sb = [...b].sort();
  return sa.every((x, i) => x === sb[i]);
}

/**
 * Execution match. The predicted result must have the same number of rows, and each gold column
 * must be answered by a distinct predicted column (names are ignored, extra predicted columns are
 * allowed) such that the rows, projected on those columns, equal the gold rows: as a multiset, or
 * in order when `ordered`.
 */
export function compareResults(gold: ResultSet, pred: ResultSet, ordered: boolean): Match {
  if (pred.rows.length !== gold.rows.length) {
    return { match: false, detail: `row count ${pred.rows.length}, gold has ${gold.rows.length}` };
  }
  const k = gold.columns.length;
  if (pred.columns.length < k) {
    return { match: false, detail: `${pred.columns.length} columns, gold has ${k}` };
  }
  const g = gold.rows.map((r) => r.map(canonical));
  const p = pred.rows.map((r) => r.map(canonical));
  const col = (rows: string[][], j: number) => rows.map((r) => r[j] ?? 'null');
  const candidates = Array.from({ length: k }, (_, j) =>
    pred.columns.map((_c, i) => i).filter((i) => sameMultiset(col(p, i), col(g, j))),
  );
  const missing = candidates.findIndex((c) => c.length === 0);
  if (missing >= 0)
    return {
      match: false,
      detail: `no predicted column has the values of gold column ${missing + 1} (${gold.columns[missing]})`,
    };

  const goldKeys = g.map(key);
  const goldSorted = [...goldKeys].sort();
  const chosen: number[] = [];
  let tried = 0;
  const search = (j: number): boolean => {
    if (j === k) {
      tried += 1;
      const projected = p.map((r) => key(chosen.map((i) => r[i] ?? 'null')));
      if (ordered) return projected.every((x, n) => x === goldKeys[n]);
      const sorted = projected.sort();
      return sorted.every((x, n) => x === goldSorted[n]);
    }
    for (const i of candidates[j] ?? []) {
      if (chosen.includes(i)) continue;
      chosen.push(i);
      if (search(j + 1)) return true;
      chosen.pop();
      if (tried > 5_000) return false;
    }
    return false;
  };
  if (search(0)) return { match: true, detail: `columns ${chosen.map((i) => pred.columns[i]).join(', ')}` };
  return {
    match: false,
    detail: ordered ? 'same values, but not the same rows in the same order' : 'same column values, but different rows',
  };
}
