import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { DEMO_DATASET_VERSION, checkDuckDbSelect, ensureDemoDatabase } from '@nl2p/engine';
import { SQL_CATEGORIES, loadSqlSet, loadVelofluxSet } from './src/dataset';
import { ResultDb, compareResults } from './src/results';

const SETS = [
  ['the public eval set', loadSqlSet(), 60],
  // Written after the linker was built, in phrasings it was not developed against: the measure of
  // how the product generalises (evals/README.md).
  ['the held-out eval set', loadSqlSet(path.join(__dirname, 'datasets', 'duckdb-heldout.json')), 30],
] as const;

describe.each(SETS)('%s', (_name, set, min) => {
  const gold = set.items.filter((i) => i.expect === 'sql');
  const file = path.join(os.tmpdir(), `nl2p-evalset-${randomUUID().slice(0, 8)}.duckdb`);
  let db: ResultDb;

  beforeAll(async () => {
    await ensureDemoDatabase(file);
    db = new ResultDb(file);
  });
  afterAll(async () => {
    await db?.close();
    rmSync(file, { force: true });
    rmSync(`${file}.wal`, { force: true });
  });

  it('has enough requests with unique ids, every category, and matches the demo data version', () => {
    expect(set.items.length).toBeGreaterThanOrEqual(min);
    expect(new Set(set.items.map((i) => i.id)).size).toBe(set.items.length);
    expect(new Set(set.items.map((i) => i.category))).toEqual(new Set(SQL_CATEGORIES));
    expect(set.demo_dataset_version).toBe(DEMO_DATASET_VERSION);
    for (const item of set.items) expect(item.expect === 'clarify').toBe(item.category.startsWith('clarify'));
  });

  it.each(gold.map((i) => [i.id, i] as const))(
    'gold SQL of %s is one SELECT that runs on the demo DuckDB and returns rows',
    async (_id, item) => {
      const sql = item.gold_sql as string;
      await expect(checkDuckDbSelect(sql)).resolves.toEqual({ ok: true });
      const result = await db.run(sql);
      expect(result.rows.length).toBeGreaterThan(0);
      expect(compareResults(result, result, item.ordered).match).toBe(true);
    },
  );

  it('ordered gold answers have no ties at their sort key, so "in order" has one meaning', async () => {
    for (const item of gold.filter((i) => i.ordered)) {
      // The same query without LIMIT, one row more: the last kept row must differ from the next one.
      const sql = item.gold_sql as string;
      const limit = /LIMIT (\d+)$/i.exec(sql);
      if (!limit) continue;
      const wider = await db.run(sql.replace(/LIMIT \d+$/i, `LIMIT ${Number(limit[1]) + 1}`));
      const sortKey = (row: unknown[]) =>
        JSON.stringify(row.at(-1), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
      const rows = wider.rows;
      const keys = rows.map((r) => sortKey(r));
      expect({ id: item.id, distinct: new Set(keys).size }).toEqual({ id: item.id, distinct: keys.length });
    }
  });
});

it('the veloFlux set has at least 10 requests over the example streams', () => {
  const v = loadVelofluxSet();
  expect(v.items.length).toBeGreaterThanOrEqual(10);
  expect(new Set(v.items.map((i) => i.stream))).toEqual(new Set(['sensor_stream', 'vehicle']));
  expect(new Set(v.items.map((i) => i.id)).size).toBe(v.items.length);
});
