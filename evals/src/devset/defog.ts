import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { csvObjects } from './csv';
import { expandGold, ordersResult, pgFloatAsDouble } from './gold';
import { loadPostgresDump, type DumpLoad } from './pg-dump';
import { isHeldOut } from './split';

/**
 * Defog's public NL→SQL development data, read from clones of two public repositories (never
 * committed here): github.com/defog-ai/sql-eval (`data/*.csv`: questions with gold PostgreSQL) and
 * github.com/defog-ai/defog-data (`defog_data/<db>/<db>.sql`: the databases as PostgreSQL dumps).
 */
export const DEFOG_SOURCES = {
  questions_gen: { file: 'questions_gen_postgres.csv', prefix: 'qg' },
  instruct_basic: { file: 'instruct_basic_postgres.csv', prefix: 'ib' },
  instruct_advanced: { file: 'instruct_advanced_postgres.csv', prefix: 'ia' },
  /** Questions the data cannot answer: the product must ask (or refuse), never answer. */
  idk: { file: 'idk.csv', prefix: 'idk' },
} as const;
export type DefogSource = keyof typeof DEFOG_SOURCES;

export const DEFOG_HOWTO =
  'clone https://github.com/defog-ai/sql-eval and https://github.com/defog-ai/defog-data, then set ' +
  'DEFOG_SQL_EVAL_DIR to the sql-eval clone (it holds data/*.csv) and DEFOG_DATA_DIR to the defog-data clone ' +
  '(it holds defog_data/<db>/<db>.sql); see evals/README.md';

export interface DefogDirs {
  sqlEval: string;
  data: string;
}

/** The two directories from `DEFOG_SQL_EVAL_DIR` and `DEFOG_DATA_DIR`, or why they cannot be used. */
export function defogDirs(env: NodeJS.ProcessEnv): { dirs: DefogDirs } | { missing: string } {
  const sqlEval = env.DEFOG_SQL_EVAL_DIR;
  const data = env.DEFOG_DATA_DIR;
  if (!sqlEval || !data) return { missing: `DEFOG_SQL_EVAL_DIR and DEFOG_DATA_DIR must both be set: ${DEFOG_HOWTO}` };
  const absent = [
    ...Object.values(DEFOG_SOURCES).map((s) => path.join(sqlEval, 'data', s.file)),
    path.join(data, 'defog_data'),
  ].filter((p) => !existsSync(p));
  if (absent.length) return { missing: `not found: ${absent.join(', ')}: ${DEFOG_HOWTO}` };
  return { dirs: { sqlEval, data } };
}

/** One gold answer: a query sql-eval accepts, compared in order when its outermost query orders. */
export interface Gold {
  sql: string;
  ordered: boolean;
}

export interface DefogItem {
  /** `<source prefix>-<row>`, the row counted from 1 after the header: `qg-012`, `idk-003`. */
  id: string;
  source: DefogSource;
  db: string;
  /** sql-eval's `query_category`; `idk/<category>` for the questions the data cannot answer. */
  category: string;
  question: string;
  /** sql-eval's extra instructions (not part of the request the product gets). */
  instructions: string;
  expect: 'sql' | 'clarify';
  /** The `query` field as written. */
  query: string;
  /** Every acceptable gold ({@link expandGold}); empty for `clarify` items. */
  golds: Gold[];
  heldOut: boolean;
}

/**
 * Whether the rows' order is part of the answer, by sql-eval's rule (`normalize_table`): the
 * category is `order_by` or the question says order, sort or arrange. A gold that orders rows the
 * question did not ask to order (`total population per country`, sorted by it) is compared as a
 * multiset; a gold must itself order for an ordered comparison ({@link ordersResult}).
 */
export function asksForOrder(category: string, question: string): boolean {
  return category === 'order_by' || /\b(order|sort|arrange)\b/i.test(question);
}

/** Every question of the four CSVs, with its split side. */
export function loadDefogItems(sqlEvalDir: string): DefogItem[] {
  const items: DefogItem[] = [];
  for (const [source, { file, prefix }] of Object.entries(DEFOG_SOURCES) as [
    DefogSource,
    (typeof DEFOG_SOURCES)[DefogSource],
  ][]) {
    const rows = csvObjects(readFileSync(path.join(sqlEvalDir, 'data', file), 'utf8'));
    const width = String(rows.length).length;
    rows.forEach((row, n) => {
      const db = row.db_name ?? '';
      const question = (row.question ?? '').trim();
      const query = row.query ?? '';
      const expect = source === 'idk' ? 'clarify' : 'sql';
      const category = row.query_category ?? '';
      items.push({
        id: `${prefix}-${String(n + 1).padStart(width, '0')}`,
        source,
        db,
        category: source === 'idk' ? `idk/${category}` : category,
        question,
        instructions: (row.instructions ?? '').trim(),
        expect,
        query,
        golds:
          expect === 'sql'
            ? expandGold(query).map((sql) => ({
                sql: pgFloatAsDouble(sql),
                ordered: ordersResult(sql) && asksForOrder(category, question),
              }))
            : [],
        heldOut: isHeldOut(db, question),
      });
    });
  }
  return items;
}

/**
 * Builds `<dir>/<db>.duckdb` afresh from the PostgreSQL dump (dumps place rows relative to the
 * day they are loaded, as gold SQL reads them relative to the day it runs, so a file is never
 * reused across runs) and closes it, so read-only instances can open it.
 */
export async function buildDefogDatabase(
  dataDir: string,
  db: string,
  dir: string,
): Promise<DumpLoad & { path: string }> {
  const file = path.join(dir, `${db}.duckdb`);
  mkdirSync(dir, { recursive: true });
  rmSync(file, { force: true });
  rmSync(`${file}.wal`, { force: true });
  const script = readFileSync(path.join(dataDir, 'defog_data', db, `${db}.sql`), 'utf8');
  const instance = await DuckDBInstance.create(file);
  try {
    const connection = await instance.connect();
    try {
      const load = await loadPostgresDump(connection, script);
      if (process.env.DEFOG_COMMENTS === '1') await commentColumns(connection, dataDir, db);
      await connection.run('CHECKPOINT');
      return { ...load, path: file };
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

/**
 * `DEFOG_COMMENTS=1`: the descriptions defog-data keeps beside each database (`<db>.json`) become
 * the columns' `COMMENT ON COLUMN`, as a database documented by its authors would carry them; the
 * product reads them from the catalog like any comment. Off by default, so figures stay comparable
 * with schemas that have none (Spider's, say); reported as their own line when on.
 */
async function commentColumns(connection: DuckDBConnection, dataDir: string, db: string): Promise<void> {
  const file = path.join(dataDir, 'defog_data', db, `${db}.json`);
  if (!existsSync(file)) return;
  const meta = JSON.parse(readFileSync(file, 'utf8')) as {
    table_metadata?: Record<string, { column_name: string; column_description?: string }[]>;
  };
  const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
  for (const [table, columns] of Object.entries(meta.table_metadata ?? {})) {
    for (const c of columns) {
      if (!c.column_description?.trim()) continue;
      // A column the dump does not create (metadata and dump disagree) is skipped, not fatal.
      await connection
        .run(`COMMENT ON COLUMN ${ident(table)}.${ident(c.column_name)} IS ${quote(c.column_description.trim())}`)
        .catch(() => undefined);
    }
  }
}
