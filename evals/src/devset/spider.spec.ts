import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { alignQuestions, alignSequences, pairScore, questionEvidence, sqlEvidence, wordsMeet } from './spider-align';
import { explicitBareColumns } from './spider-bare-columns';
import { spiderGoldForDuckDb, sqlShape } from './spider-gold';
import { affinityOf, copySqliteInto, stagedType } from './spider-sqlite';
import { SPIDER_DEV_DATABASES, isHeldOutDatabase, parseGoldLines, sampleAcrossDatabases, spiderDirs } from './spider';

describe('Spider question/gold alignment', () => {
  const score = (q: string, sql: string) => pairScore(questionEvidence(q), sqlEvidence(sql));

  it('meets question words and identifier parts by rough stems and shared prefixes', () => {
    expect(wordsMeet('head', 'head')).toBe(true);
    expect(wordsMeet('department', 'department')).toBe(true);
    expect(wordsMeet('employe', 'employee')).toBe(true);
    expect(wordsMeet('age', 'agent')).toBe(false);
    expect(questionEvidence('How many heads are older than fifty-six or 56?').stems).toContain('head');
    expect(sqlEvidence('SELECT born_state FROM head WHERE name = "Jo" LIMIT 3').parts).toEqual(
      new Set(['born', 'state', 'head', 'name']),
    );
  });

  it('scores a question higher with its own query than with its neighbour', () => {
    const q = 'How many heads of the departments are older than 56 ?';
    expect(score(q, 'SELECT count(*) FROM head WHERE age  >  56')).toBeGreaterThan(
      score(q, 'SELECT name ,  born_state ,  age FROM head ORDER BY age'),
    );
    const v = "What are the names of the heads born in state 'Alabama'?";
    expect(score(v, "SELECT name FROM head WHERE born_state = 'Alabama'")).toBeGreaterThan(
      score(v, "SELECT name FROM head WHERE born_state = 'California'"),
    );
  });

  it('aligns monotonically, skipping the gold lines whose question is missing', () => {
    // Question k matches gold 2k exactly (score 5), anything else scores -1.
    const path = alignSequences(4, 9, (i, j) => (j === 2 * i ? 5 : -1));
    expect(path).toEqual([0, 2, 4, 6]);
  });

  it('keeps only the pairs whose evidence beats the queries around them', () => {
    const golds = [
      { sql: 'SELECT count(*) FROM farm', db: 'farm' },
      { sql: 'SELECT count(*) FROM farm', db: 'farm' },
      { sql: 'SELECT Total_Horses FROM farm ORDER BY Total_Horses ASC', db: 'farm' },
      { sql: 'SELECT Hosts FROM farm_competition WHERE Theme != "Aliens"', db: 'farm' },
      { sql: 'SELECT Status, avg(Population) FROM city GROUP BY Status', db: 'farm' },
    ];
    const questions = [
      'How many farms are there?',
      'List the total number of horses on farms in ascending order.',
      'What are the hosts of competitions whose theme is not "Aliens"?',
      'Tell me something.',
    ];
    const run = alignQuestions(questions, golds);
    const kept = Object.fromEntries(run.pairs.map((p) => [p.question, p.line]));
    expect(kept[questions[1]]).toBe(2);
    expect(kept[questions[2]]).toBe(3);
    expect(kept[questions[3]]).toBeUndefined(); // no evidence: not kept
  });
});

describe('SQLite → DuckDB', () => {
  let dir: string;
  let instance: DuckDBInstance;
  let c: DuckDBConnection;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'spider-sqlite-'));
    // Spider's files hold rows their foreign keys refuse; SQLite does not check them unless asked.
    const sqlite = new DatabaseSync(path.join(dir, 'tiny.sqlite'), { enableForeignKeyConstraints: false });
    sqlite.exec(`
      CREATE TABLE city (City_ID int, Name text, Area real, Founded date, Code number, PRIMARY KEY (City_ID));
      CREATE TABLE shop (Shop_ID INTEGER PRIMARY KEY, City_ID int, Opened DATETIME, Note,
        FOREIGN KEY (City_ID) REFERENCES city(City_ID));
      CREATE TABLE visit (Shop_ID int, Day text, FOREIGN KEY (Shop_ID) REFERENCES shop(Shop_ID));
      INSERT INTO city VALUES (1, 'Oslo', 454.0, '1048-01-01', 7), (2, 'Bergen', 465.3, '08/30/1070', 'x9');
      INSERT INTO shop VALUES (10, 1, '2015-03-01 10:00:00', 42), (11, 2, '2016-01-01 09:30:00', 'n/a');
      INSERT INTO visit VALUES (10, 'Mon'), (99, 'Tue');`);
    sqlite.close();
    instance = await DuckDBInstance.create(':memory:');
    c = await instance.connect();
  });
  afterAll(() => {
    c.closeSync();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads SQLite affinity from declared types and falls back to text when a value does not fit', () => {
    expect(['int', 'varchar(20)', 'real', 'number', '', 'BLOB'].map(affinityOf)).toEqual([
      'INTEGER',
      'TEXT',
      'REAL',
      'NUMERIC',
      'BLOB',
      'BLOB',
    ]);
    expect(stagedType('int', [1n, null, 3n])).toBe('BIGINT');
    expect(stagedType('int', [1n, 'two'])).toBe('VARCHAR');
    expect(stagedType('number', [1n, 2.5])).toBe('DOUBLE');
    expect(stagedType('text', [1n])).toBe('VARCHAR');
    expect(stagedType('', [])).toBe('VARCHAR');
  });

  it('copies tables with their types, dates, rows and the keys the data satisfies', async () => {
    const load = await copySqliteInto(c, path.join(dir, 'tiny.sqlite'));
    expect(load).toMatchObject({ tables: 3, rows: 6 });
    const types = await c.runAndReadAll(
      `SELECT table_name || '.' || column_name, data_type FROM information_schema.columns ORDER BY table_name, ordinal_position`,
    );
    expect(Object.fromEntries(types.getRowsJS() as [string, string][])).toEqual({
      'city.City_ID': 'BIGINT',
      'city.Name': 'VARCHAR',
      'city.Area': 'DOUBLE',
      'city.Founded': 'VARCHAR', // '08/30/1070' is no ISO date: compared as text, as SQLite does
      'city.Code': 'VARCHAR', // 'x9' in a numeric column
      'shop.Shop_ID': 'BIGINT',
      'shop.City_ID': 'BIGINT',
      'shop.Opened': 'TIMESTAMP',
      'shop.Note': 'VARCHAR',
      'visit.Shop_ID': 'BIGINT',
      'visit.Day': 'VARCHAR',
    });
    const keys = await c.runAndReadAll(
      `SELECT table_name, constraint_type, referenced_table FROM duckdb_constraints()
       WHERE constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY') ORDER BY table_name, constraint_type`,
    );
    // visit → shop is declared but shop 99 does not exist: DuckDB would refuse the rows, so it is left out.
    expect(keys.getRowsJS()).toEqual([
      ['city', 'PRIMARY KEY', null],
      ['shop', 'FOREIGN KEY', 'city'],
      ['shop', 'PRIMARY KEY', null],
    ]);
    expect(load.droppedKeys).toEqual(['visit: 1 of 1 keys']);
    const rows = await c.runAndReadAll(
      `SELECT Name, CAST(Opened AS VARCHAR) FROM city JOIN shop USING (City_ID) ORDER BY Name`,
    );
    expect(rows.getRowsJS()).toEqual([
      ['Bergen', '2016-01-01 09:30:00'],
      ['Oslo', '2015-03-01 10:00:00'],
    ]);
  });
});

describe('Spider gold on DuckDB', () => {
  const names = new Set(['head', 'name', 'born_state', 'cast', 'e', 'g', 's']);

  it('reads double-quoted text as a literal unless it names a table or column, and LIKE as ILIKE', () => {
    expect(
      spiderGoldForDuckDb('SELECT name FROM head WHERE born_state = "Alabama" AND name LIKE "%it\'s%";', names),
    ).toBe("SELECT name FROM head WHERE born_state = 'Alabama' AND name ILIKE '%it''s%'");
    expect(spiderGoldForDuckDb('SELECT "name" FROM head WHERE born_state = "name"', names)).toBe(
      `SELECT "name" FROM head WHERE born_state = 'name'`,
    );
  });

  it('makes a JOIN without ON a cross join and quotes a reserved table name', () => {
    expect(
      spiderGoldForDuckDb('SELECT 1 FROM E AS T1 JOIN G AS T2 JOIN S AS T3 ON T1.a = T2.a AND T1.b = T3.b', names),
    ).toBe('SELECT 1 FROM E AS T1 CROSS JOIN G AS T2 JOIN S AS T3 ON T1.a = T2.a AND T1.b = T3.b');
    expect(spiderGoldForDuckDb('SELECT t.x FROM CAST AS t', names)).toBe('SELECT t.x FROM "CAST" AS t');
  });

  it("makes SQLite's bare columns explicit so DuckDB returns what SQLite does", async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    try {
      await c.run(`CREATE TABLE p (id INT, dept TEXT, name TEXT, age INT);
        INSERT INTO p VALUES (1, 'a', 'Ann', 30), (2, 'a', 'Bob', 50), (3, 'b', 'Cid', 40)`);
      const run = async (sql: string) => (await c.runAndReadAll(await explicitBareColumns(sql, c))).getRowsJS();
      // One max(): the bare column comes from the row holding it.
      expect(await run('SELECT dept, name, max(age) FROM p GROUP BY dept ORDER BY dept')).toEqual([
        ['a', 'Bob', 50],
        ['b', 'Cid', 40],
      ]);
      expect(await run('SELECT name, min(age) FROM p')).toEqual([['Ann', 30]]);
      // Grouped by the key the column depends on: any value of the group is the value.
      expect(await run('SELECT name, count(*) FROM p GROUP BY id ORDER BY count(*) DESC, id LIMIT 1')).toEqual([
        ['Ann', 1n],
      ]);
      const plain = 'SELECT name FROM p WHERE age > 35';
      expect(await explicitBareColumns(plain, c)).toBe(plain);
    } finally {
      c.closeSync();
      instance.closeSync();
    }
  });

  it('names the most telling shape of a query', () => {
    expect(sqlShape('SELECT a FROM t UNION SELECT a FROM u')).toBe('set-op');
    expect(sqlShape('SELECT a FROM t WHERE a IN (SELECT a FROM u)')).toBe('nested');
    expect(sqlShape('SELECT a FROM t JOIN u ON t.id = u.id GROUP BY a')).toBe('join');
    expect(sqlShape('SELECT a, count(*) FROM t GROUP BY a')).toBe('group');
    expect(sqlShape('SELECT a FROM t ORDER BY a')).toBe('order');
    expect(sqlShape('SELECT count(*) FROM t')).toBe('aggregate');
    expect(sqlShape("SELECT a FROM t WHERE b = 'union'")).toBe('filter');
    expect(sqlShape('SELECT a FROM t')).toBe('plain');
  });
});

describe('the Spider sets', () => {
  it('reads gold lines and skips anything else', () => {
    expect(parseGoldLines('SELECT 1\tfarm\n开始\nSELECT 2 \t geo\n')).toEqual([
      { sql: 'SELECT 1', db: 'farm', line: 1 },
      { sql: 'SELECT 2', db: 'geo', line: 3 },
    ]);
  });

  it('holds out whole databases, stably, about a quarter of them', () => {
    const names = Array.from({ length: 400 }, (_, k) => `db_${k}`);
    const held = names.filter(isHeldOutDatabase);
    expect(held.length).toBeGreaterThan(70);
    expect(held.length).toBeLessThan(130);
    // Pinned: a change to the hash or the share would move databases between the two sides.
    expect(['academic', 'architecture', 'bike_1', 'farm', 'geo', 'college_2', 'hr_1'].map(isHeldOutDatabase)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it('reserves the 20 dev databases by name', () => {
    expect(SPIDER_DEV_DATABASES.size).toBe(20);
    expect(SPIDER_DEV_DATABASES.has('concert_singer')).toBe(true);
  });

  it('samples the same items every time, spread over the databases', () => {
    const items = [
      ...Array.from({ length: 10 }, (_, k) => ({ db: 'big', question: `b${k}` })),
      { db: 'small', question: 's0' },
      { db: 'mid', question: 'm0' },
      { db: 'mid', question: 'm1' },
    ];
    const sample = sampleAcrossDatabases(items, 5);
    expect(sample.map((i) => i.db).sort()).toEqual(['big', 'big', 'mid', 'mid', 'small']);
    expect(sampleAcrossDatabases([...items].reverse(), 5)).toEqual(sample);
  });

  it('says how to get the data when it is absent', () => {
    expect(spiderDirs({})).toEqual({ missing: expect.stringMatching(/SPIDER_EVAL_DIR and MACHINE_SPIDER_DIR/) });
    expect(spiderDirs({ SPIDER_EVAL_DIR: '/nonexistent', MACHINE_SPIDER_DIR: '/nonexistent' })).toEqual({
      missing: expect.stringMatching(/not found: .*train_gold\.sql/),
    });
  });
});
