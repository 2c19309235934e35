import { assertSingleSelect, UnsafeSqlError } from './single-select';
import type { SqlDialect } from './types';

const ALL: SqlDialect[] = ['veloflux', 'duckdb', 'postgres'];

function refusal(sql: string, dialect: SqlDialect): UnsafeSqlError | undefined {
  try {
    assertSingleSelect(sql, dialect);
    return undefined;
  } catch (error) {
    if (error instanceof UnsafeSqlError) return error;
    throw error;
  }
}

describe('assertSingleSelect', () => {
  describe.each(ALL)('accepts a single SELECT (%s)', (dialect) => {
    it.each([
      'SELECT a FROM s',
      'select a from s',
      'SELECT a FROM s;',
      'SELECT a FROM s; -- trailing comment',
      "SELECT ';' AS semi, 'DROP TABLE s; DELETE FROM s' AS text FROM s",
      "SELECT 'it''s; DROP' FROM s",
      'SELECT "update", "delete" FROM s',
      'SELECT s.update FROM s',
      'SELECT a FROM s -- ; DROP STREAM s',
      'SELECT a /* ; DELETE FROM s */ FROM s',
      'SELECT "température" FROM capteurs WHERE "温度" > 3',
      "SELECT a FROM s WHERE b = 'naïve ☃ 🚀'",
    ])('%j', (sql) => {
      expect(refusal(sql, dialect)).toBeUndefined();
    });
  });

  it.each([
    'WITH x AS (SELECT a FROM t) SELECT * FROM x',
    '(SELECT a FROM t) UNION (SELECT b FROM u)',
    'SELECT * FROM t JOIN u ON t.id = u.id',
  ])('accepts SQL-target query %j', (sql) => {
    expect(refusal(sql, 'postgres')).toBeUndefined();
    expect(refusal(sql, 'duckdb')).toBeUndefined();
  });

  it('accepts DuckDB-only syntax on the lexer verdict', () => {
    expect(refusal('SELECT * EXCLUDE (a) FROM t QUALIFY row_number() OVER () = 1', 'duckdb')).toBeUndefined();
    expect(refusal('FROM t SELECT a', 'duckdb')).toBeUndefined();
    expect(refusal('SELECT [1, 2, 3] AS l, {"k": 1} FROM t', 'duckdb')).toBeUndefined();
  });

  it.each(['SELECT a FROM s', "SELECT `my col` FROM s WHERE x = 'a'"])(
    'accepts veloFlux backtick identifiers: %j',
    (sql) => {
      expect(refusal(sql, 'veloflux')).toBeUndefined();
    },
  );

  describe.each(ALL)('refuses hostile input (%s)', (dialect) => {
    it.each<[string, string]>([
      ['SELECT 1; DROP STREAM s', 'DROP'],
      ['SELECT 1; DROP TABLE s;', 'DROP'],
      ['SELECT 1;\nSELECT 2', 'a second statement (SELECT)'],
      ['/* */ DELETE FROM s', 'DELETE'],
      ['-- comment\nDELETE FROM s', 'DELETE'],
      ['DROP STREAM s', 'DROP'],
      ['INSERT INTO s VALUES (1)', 'INSERT'],
      ['UPDATE s SET a = 1', 'UPDATE'],
      ['TRUNCATE s', 'TRUNCATE'],
      ['ALTER TABLE s ADD COLUMN b int', 'ALTER'],
      ['CREATE TABLE x AS SELECT 1', 'CREATE'],
      ['GRANT ALL ON s TO public', 'GRANT'],
      ['SELECT a INTO newtable FROM s', 'INTO'],
      ['WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x', 'DELETE'],
      ['WITH x AS (SELECT 1) DELETE FROM t', 'DELETE'],
      ['SELECT * FROM (UPDATE t SET a = 1 RETURNING *) x', 'UPDATE'],
      ['SELECT a FROM t FOR UPDATE', 'UPDATE'],
      ['EXPLAIN ANALYZE DELETE FROM t', 'DELETE'],
      ["COPY (SELECT 1) TO '/tmp/x'", 'COPY'],
      ['SET search_path = evil', 'SET'],
      ['CALL p()', 'CALL'],
      ['SELEC a FROM s', 'SELEC'],
      ['', 'no SQL'],
      ['   -- only a comment', 'no SQL'],
    ])('%j (found %s)', (sql, found) => {
      const error = refusal(sql, dialect);
      expect(error).toBeInstanceOf(UnsafeSqlError);
      expect(error?.found).toBe(found);
      expect(error?.message).toMatch(/^refused: /);
    });

    it.each<[string, RegExp]>([
      ["SELECT 'unterminated; DROP TABLE t", /unterminated string literal/],
      ['SELECT 1 /* unterminated; DROP TABLE t', /unterminated block comment/],
      ['SELECT "unterminated; DROP TABLE t', /unterminated quoted identifier/],
      ['SELECT $$; DROP TABLE t; $$', /found DROP/],
      ['SELECT $tag$ x $tag$ FROM t', /dollar-quoted/],
      ["SELECT $$'$$; DROP TABLE t; --'", /dollar-quoted|DROP/],
      ['SELECT a FROM s\u0000; DROP TABLE s', /U\+0000|DROP/],
      ['SELECT a\u0008 FROM s', /U\+0008/],
      ['SELECT \\! rm -rf /', /U\+005C/],
    ])('refuses what the lexer cannot read safely: %j', (sql, pattern) => {
      const error = refusal(sql, dialect);
      expect(error).toBeInstanceOf(UnsafeSqlError);
      expect(error?.message).toMatch(pattern);
    });
  });

  it('uses the documented message', () => {
    expect(() => assertSingleSelect('SELECT 1; DROP TABLE s', 'postgres')).toThrow(
      'refused: only a single SELECT statement may be sent to the database (found DROP)',
    );
  });

  it('refuses WITH and parenthesized queries for veloFlux, which only takes a plain SELECT', () => {
    expect(refusal('WITH x AS (SELECT a FROM s) SELECT * FROM x', 'veloflux')?.found).toBe('WITH');
    expect(refusal('(SELECT a FROM s)', 'veloflux')?.found).toBe('(');
  });

  it('refuses DuckDB FROM-first for PostgreSQL', () => {
    expect(refusal('FROM t SELECT a', 'postgres')?.found).toBe('FROM');
  });

  it('refuses backtick-hidden statements on SQL targets, where backticks do not quote', () => {
    expect(refusal('SELECT `; DROP TABLE t; --` FROM t', 'postgres')).toBeInstanceOf(UnsafeSqlError);
  });

  it.each<[string, string]>([
    ["SELECT pg_read_file('/etc/passwd')", 'pg_read_file()'],
    ['SELECT pg_terminate_backend(42)', 'pg_terminate_backend()'],
    ["SELECT set_config('x', 'y', false)", 'set_config()'],
    ["SELECT nextval('seq')", 'nextval()'],
    ["SELECT * FROM read_csv('/etc/passwd')", 'read_csv()'],
    ["SELECT * FROM '/etc/passwd'", "FROM '/etc/passwd'"],
    ["SELECT getenv('HOME')", 'getenv()'],
  ])('refuses state-changing or file-reading calls on SQL targets: %j', (sql, found) => {
    expect(refusal(sql, 'duckdb')?.found).toBe(found);
    expect(refusal(sql, 'postgres')?.found).toBe(found);
  });

  it('refuses a data-modifying CTE by its keyword', () => {
    const error = refusal('WITH x AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM x', 'postgres');
    expect(error?.code).toBe('forbidden-keyword');
  });

  it('refuses input longer than the limit', () => {
    expect(refusal(`SELECT ${'a, '.repeat(60_000)}b FROM s`, 'veloflux')?.code).toBe('too-long');
  });

  it('is an Error with a name, usable with instanceof', () => {
    const error = refusal('DROP TABLE t', 'postgres');
    expect(error).toBeInstanceOf(Error);
    expect(error?.name).toBe('UnsafeSqlError');
  });
});
