import { DuckDBInstance } from '@duckdb/node-api';
import { parseCsv, csvObjects } from './csv';
import { asksForOrder, defogDirs } from './defog';
import { combinations, expandGold, pgFloatAsDouble, ordersResult } from './gold';
import { adaptStatement, loadPostgresDump, splitStatements, withoutForeignKeys } from './pg-dump';
import { HELD_OUT_PERCENT, isHeldOut } from './split';

describe('parseCsv (RFC 4180)', () => {
  it('reads plain fields, quoted fields with commas, doubled quotes and line breaks', () => {
    const text = 'a,b,c\r\n1,"x, y","he said ""hi"""\r\n2,"line one\nline two",\n';
    expect(parseCsv(text)).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x, y', 'he said "hi"'],
      ['2', 'line one\nline two', ''],
    ]);
  });

  it('keeps empty fields, an empty quoted field, and a last record without a line break', () => {
    expect(parseCsv(',"",x\n"q"')).toEqual([['', '', 'x'], ['q']]);
  });

  it('accepts LF or CRLF and a byte-order mark, and refuses an unterminated quote', () => {
    expect(parseCsv('\uFEFFh\nv\r\nw')).toEqual([['h'], ['v'], ['w']]);
    expect(() => parseCsv('a,"open')).toThrow(/inside a quoted field/);
  });

  it('csvObjects keys records by the header and fills short records', () => {
    expect(csvObjects('question,query,db_name\n"Q, 1",SELECT 1,academic\nQ2\n')).toEqual([
      { question: 'Q, 1', query: 'SELECT 1', db_name: 'academic' },
      { question: 'Q2', query: '', db_name: '' },
    ]);
  });
});

describe('expandGold (sql-eval get_all_minimal_queries)', () => {
  // The cases of sql-eval's own test (tests/test_eval.py).
  it('leaves a query without braces as it is', () => {
    const q = 'SELECT persons.name FROM persons WHERE persons.age > 25 GROUP BY 1';
    expect(expandGold(q)).toEqual([q]);
  });

  it('expands the column alternatives into every non-empty combination, in order', () => {
    expect(expandGold('SELECT {persons.name,persons.id} FROM persons WHERE persons.age > 25')).toEqual([
      'SELECT persons.name FROM persons WHERE persons.age > 25',
      'SELECT persons.id FROM persons WHERE persons.age > 25',
      'SELECT persons.name, persons.id FROM persons WHERE persons.age > 25',
    ]);
  });

  it('groups by the chosen columns where the query says GROUP BY {}, and splits alternatives on ;', () => {
    const q =
      'SELECT {persons.name,persons.id} FROM persons GROUP BY {};SELECT {user.name, user.id}, count(*) FROM user GROUP BY {};';
    expect(expandGold(q)).toEqual([
      'SELECT persons.name FROM persons GROUP BY persons.name',
      'SELECT persons.id FROM persons GROUP BY persons.id',
      'SELECT persons.name, persons.id FROM persons GROUP BY persons.name, persons.id',
      'SELECT user.name, count(*) FROM user GROUP BY user.name',
      'SELECT user.id, count(*) FROM user GROUP BY user.id',
      'SELECT user.name, user.id, count(*) FROM user GROUP BY user.name, user.id',
    ]);
  });

  it('does not split on a ; inside a quoted literal', () => {
    expect(expandGold("SELECT 'a;b' AS x;")).toEqual(["SELECT 'a;b' AS x"]);
  });

  it('combinations follow itertools.combinations by size', () => {
    expect(combinations(['a', 'b', 'c'])).toEqual([
      ['a'],
      ['b'],
      ['c'],
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'c'],
      ['a', 'b', 'c'],
    ]);
  });
});

describe('pgFloatAsDouble (PostgreSQL float is double precision)', () => {
  it('writes the FLOAT of a cast as DOUBLE, outside quoted text only', () => {
    expect(pgFloatAsDouble("SELECT CAST(a AS FLOAT) / NULLIF(b::float, 0), 'as float' FROM t")).toBe(
      "SELECT CAST(a AS DOUBLE) / NULLIF(b::DOUBLE, 0), 'as float' FROM t",
    );
    expect(pgFloatAsDouble('SELECT a::float4, CAST(b AS float(24)), floaty FROM t')).toBe(
      'SELECT a::float4, CAST(b AS float(24)), floaty FROM t',
    );
  });
});

describe('ordering', () => {
  it('ordersResult sees only the outermost ORDER BY', () => {
    expect(ordersResult('SELECT a FROM t ORDER BY a DESC')).toBe(true);
    expect(ordersResult('SELECT a, rank() OVER (ORDER BY b) FROM t')).toBe(false);
    expect(ordersResult('SELECT * FROM (SELECT a FROM t ORDER BY a LIMIT 3) s')).toBe(false);
    expect(ordersResult("SELECT 'order by' AS x FROM t -- ORDER BY x")).toBe(false);
  });

  it("asksForOrder follows sql-eval's rule: the order_by category, or order/sort/arrange in the question", () => {
    expect(asksForOrder('order_by', 'Which airports are busiest?')).toBe(true);
    expect(asksForOrder('group_by', 'List them sorted by name')).toBe(false);
    expect(asksForOrder('group_by', 'List them, sort by name')).toBe(true);
    expect(asksForOrder('group_by', 'Total population per country')).toBe(false);
  });
});

describe('the held-out split', () => {
  it('is deterministic: the same db and question always land on the same side', () => {
    const a = isHeldOut('academic', 'How many authors are there?');
    for (let i = 0; i < 5; i++) expect(isHeldOut('academic', 'How many authors are there?')).toBe(a);
    // Fixed by sha1 alone (first 8 hex digits mod 100: 90, 27, 68), so the split never moves.
    expect([isHeldOut('yelp', 'q1'), isHeldOut('yelp', 'q2'), isHeldOut('yelp', 'q3')]).toEqual([false, true, false]);
  });

  it(`holds out about ${HELD_OUT_PERCENT} % of items`, () => {
    const n = 5000;
    let held = 0;
    for (let i = 0; i < n; i++) if (isHeldOut(`db${i % 11}`, `question number ${i}`)) held++;
    expect(held / n).toBeGreaterThan(0.28);
    expect(held / n).toBeLessThan(0.32);
  });
});

describe('PostgreSQL dumps on DuckDB', () => {
  it('splits statements outside quotes and comments', () => {
    const script =
      "-- a comment; with a semicolon\nCREATE TABLE t (a text);\nINSERT INTO t VALUES ('x;y'), ('it''s');\n/* ; */";
    expect(splitStatements(script)).toEqual(['CREATE TABLE t (a text)', "INSERT INTO t VALUES ('x;y'), ('it''s')"]);
  });

  it('adapts only what DuckDB refuses: schema qualifiers, serial types, CREATE SCHEMA', () => {
    const schemas = new Set(['public', 'shop']);
    expect(adaptStatement('CREATE SCHEMA IF NOT EXISTS shop', schemas)).toEqual({
      sql: null,
      adaptations: ['create schema dropped'],
      schema: 'shop',
    });
    expect(
      adaptStatement("CREATE TABLE shop.items (id SERIAL, n bigserial, note text DEFAULT 'public.x')", schemas),
    ).toEqual({
      sql: "CREATE TABLE items (id integer, n bigint, note text DEFAULT 'public.x')",
      adaptations: ['schema folded into main', 'serial type'],
    });
    expect(adaptStatement('INSERT INTO t VALUES (1)', schemas)).toEqual({
      sql: 'INSERT INTO t VALUES (1)',
      adaptations: [],
    });
  });

  it('drops foreign keys when asked', () => {
    expect(
      withoutForeignKeys(
        'CREATE TABLE n (id int, user_id INT NOT NULL REFERENCES users(uid) ON DELETE CASCADE, x int)',
      ),
    ).toBe('CREATE TABLE n (id int, user_id INT NOT NULL, x int)');
    expect(withoutForeignKeys('CREATE TABLE n (a int, FOREIGN KEY (a) REFERENCES m (b))')).toBe(
      'CREATE TABLE n (a int)',
    );
  });

  it('loads a dump into main, with views under the old schema name, to_char, and skipped statements reported', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const load = await loadPostgresDump(
        connection,
        [
          'CREATE SCHEMA IF NOT EXISTS shop;',
          'CREATE TABLE shop.users (uid BIGINT PRIMARY KEY, name text);',
          'CREATE TABLE shop.notes (id SERIAL PRIMARY KEY, user_id INT REFERENCES shop.users(uid), on_day date);',
          "INSERT INTO shop.users VALUES (1, 'ann');",
          "INSERT INTO shop.notes VALUES (1, 1, '2024-03-05'), (2, 1, to_char(DATE '2024-03-05', 'YYYY-MM-DD')::date);",
          'CREATE FUNCTION nope() RETURNS int AS 1;',
        ].join('\n'),
      );
      expect(load.adapted).toEqual({
        'create schema dropped': 1,
        'schema folded into main': 4,
        'serial type': 1,
        'foreign key dropped': 1,
        'to_char emulated': 1,
      });
      expect(load.skipped).toHaveLength(1);
      expect(load.schemas).toEqual(['shop']);
      const rows = async (sql: string) => (await connection.runAndReadAll(sql)).getRowsJS();
      expect(
        await rows("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY 1"),
      ).toEqual([['notes'], ['users']]);
      expect(await rows('SELECT count(*)::int FROM shop.notes JOIN shop.users ON user_id = uid')).toEqual([[2]]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});

it('defogDirs says how to get the data when the variables are unset', () => {
  const found = defogDirs({});
  expect('missing' in found && found.missing).toMatch(/defog-ai\/sql-eval.*defog-ai\/defog-data/);
});
