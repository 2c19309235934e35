import { DuckDBInstance } from '@duckdb/node-api';
import type { LinkSchema } from '@nl2p/linking';
import {
  loadSpiderItems,
  sampleAcrossDatabases,
  spiderDirs,
  spiderSqlitePath,
  type SpiderLoad,
} from '../devset/spider';
import { explicitBareColumns } from '../devset/spider-bare-columns';
import { spiderGoldForDuckDb } from '../devset/spider-gold';
import { cachedDuckDb, type SqliteLoad } from '../devset/spider-sqlite';
import type { OfflineItem } from './linker-eval';

/** Spider databases are named `spider/<db>` in the eval: defog has databases of the same names. */
export const SPIDER_DB_PREFIX = 'spider/';

/**
 * Caps that keep the eval to seconds: a sample spread over the databases
 * ({@link sampleAcrossDatabases}), taken before any gold is run, so the sample does not depend on
 * what runs on DuckDB (items whose gold fails are dropped afterwards and counted).
 */
export const SPIDER_DEV_CAP = 1200;
export const SPIDER_HELD_OUT_CAP = 400;

/** Bump when the conversion changes: cached DuckDB files of older versions are not reused. */
export const SPIDER_CONVERSION_VERSION = 1;

export interface SpiderSets {
  dev: OfflineItem[];
  heldOut: OfflineItem[];
  /** One line on the alignment and the split, for the summary. */
  note: string;
}

/** The Spider sets, or why they are skipped (the data is absent). */
export function spiderSets(env: NodeJS.ProcessEnv): SpiderSets | { missing: string } {
  const found = spiderDirs(env);
  if ('missing' in found) return found;
  const load = loadSpiderItems(found.dirs);
  const offline = (heldOut: boolean, cap: number) =>
    sampleAcrossDatabases(
      load.items.filter((i) => i.heldOut === heldOut),
      cap,
    ).map((i): OfflineItem => ({
      id: i.id,
      db: `${SPIDER_DB_PREFIX}${i.db}`,
      category: i.shape,
      request: i.question,
      expect: 'sql',
      golds: [{ sql: i.sql, ordered: i.ordered }],
    }));
  const dev = offline(false, SPIDER_DEV_CAP);
  const heldOut = offline(true, SPIDER_HELD_OUT_CAP);
  return { dev, heldOut, note: alignmentNote(load, dev, heldOut) };
}

function alignmentNote(load: SpiderLoad, dev: OfflineItem[], heldOut: OfflineItem[]): string {
  const parts = load.alignment.map((a) => `${a.part} ${a.kept}/${a.questions} questions kept`).join(', ');
  const excluded = Object.entries(load.excluded)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  const dbs = (items: OfflineItem[]) => new Set(items.map((i) => i.db)).size;
  const all = (held: boolean) => load.items.filter((i) => i.heldOut === held).length;
  return (
    `spider: aligned ${parts}${excluded ? `; left out: ${excluded}` : ''}; ` +
    `spider-dev ${dev.length} of ${all(false)} items over ${dbs(dev)} databases, ` +
    `spider-heldout ${heldOut.length} of ${all(true)} over ${dbs(heldOut)} (whole databases held out)`
  );
}

/** The cached DuckDB copy of a Spider database (`spider/<db>`), converted on first use. */
export async function spiderDatabase(
  env: NodeJS.ProcessEnv,
  name: string,
  cacheDir: string,
): Promise<{ path: string; load: SqliteLoad | null }> {
  const found = spiderDirs(env);
  if ('missing' in found) throw new Error(found.missing);
  const db = name.slice(SPIDER_DB_PREFIX.length);
  return cachedDuckDb(spiderSqlitePath(found.dirs.evalKit, db), cacheDir, db, SPIDER_CONVERSION_VERSION);
}

/** The tables' and columns' names, lower case: what a double-quoted string in gold SQL may name. */
export function identifiersOf(schema: LinkSchema): Set<string> {
  const names = new Set<string>();
  for (const [table, columns] of Object.entries(schema.tables)) {
    names.add(table.toLowerCase());
    for (const c of columns) names.add(c.name.toLowerCase());
  }
  return names;
}

/**
 * The items with their gold translated from SQLite for DuckDB, knowing each database's names
 * ({@link spiderGoldForDuckDb}, then {@link explicitBareColumns} on DuckDB's own parser).
 */
export async function withDuckDbGold(
  items: readonly OfflineItem[],
  schemaOf: (db: string) => LinkSchema,
): Promise<OfflineItem[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const out: OfflineItem[] = [];
    for (const item of items) {
      const names = identifiersOf(schemaOf(item.db));
      const golds = [];
      for (const g of item.golds)
        golds.push({ ...g, sql: await explicitBareColumns(spiderGoldForDuckDb(g.sql, names), connection) });
      out.push({ ...item, golds });
    }
    return out;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
