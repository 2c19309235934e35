import { extractSql } from './clean-sql';

describe('extractSql', () => {
  it.each<[string, string, string]>([
    ['plain SQL', 'SELECT a FROM s', 'SELECT a FROM s'],
    ['surrounding whitespace and a trailing semicolon', '  \n SELECT a FROM s;  \n', 'SELECT a FROM s'],
    ['several trailing semicolons', 'SELECT a FROM s; ;;\n', 'SELECT a FROM s'],
    [
      'a ```sql fence with prose around it',
      'Here is the SQL:\n```sql\nSELECT a\nFROM s;\n```\nIt selects a.',
      'SELECT a\nFROM s',
    ],
    ['a fence without language', '```\nSELECT a FROM s\n```', 'SELECT a FROM s'],
    ['a ~~~ fence', '~~~sql\nSELECT a FROM s\n~~~', 'SELECT a FROM s'],
    ['an unclosed fence (truncated answer)', '```sql\nSELECT a FROM s', 'SELECT a FROM s'],
    ['a one-line fence', '```sql SELECT a FROM s```', 'SELECT a FROM s'],
    ['a closing fence on the last SQL line', '```sql\nSELECT a FROM s```', 'SELECT a FROM s'],
    ['the sql fence over another fence', '```json\n{"a": 1}\n```\n```sql\nSELECT 1\n```', 'SELECT 1'],
    ['leading prose on its own line', 'Here is the SQL:\nSELECT a FROM s', 'SELECT a FROM s'],
    ['leading prose on the same line', 'Here is the SQL: SELECT a FROM s;', 'SELECT a FROM s'],
    ['lowercase SQL', 'sure:\nselect a from s', 'select a from s'],
    ['inline code in prose', 'Use `SELECT a FROM s` for that.', 'SELECT a FROM s'],
    ['trailing explanation after a blank line', 'SELECT a\nFROM s\n\nThis query selects a from s.', 'SELECT a\nFROM s'],
    ['trailing explanation after a semicolon line', 'SELECT a FROM s;\nThis query selects a.', 'SELECT a FROM s'],
    ['a markdown list after the SQL', 'SELECT a FROM s\n\n- a is the id', 'SELECT a FROM s'],
    ['a blank line inside the SQL', 'SELECT a\n\nFROM s\n\nWHERE a > 1', 'SELECT a\n\nFROM s\n\nWHERE a > 1'],
    ['a leading byte order mark', '\ufeffSELECT 1', 'SELECT 1'],
    ['a WITH query', 'WITH x AS (SELECT 1) SELECT * FROM x', 'WITH x AS (SELECT 1) SELECT * FROM x'],
    ['a semicolon inside a string is kept', "SELECT ';' FROM s;", "SELECT ';' FROM s"],
  ])('%s', (_name, input, expected) => {
    expect(extractSql(input)).toBe(expected);
  });

  it('keeps a second statement so prevalidation can reject it', () => {
    expect(extractSql('SELECT 1; DROP STREAM s;')).toBe('SELECT 1; DROP STREAM s');
    expect(extractSql('```sql\nDELETE FROM s\n```')).toBe('DELETE FROM s');
  });

  it('does not take a statement after ";" for trailing prose when it is SQL', () => {
    expect(extractSql('SELECT 1;\nDROP TABLE t')).toBe('SELECT 1;\nDROP TABLE t');
  });

  it.each([
    '',
    '   ',
    'I cannot help with that.',
    'Select the stream you want, please.',
    'With pleasure! Which stream?',
    'use `SELECT`',
  ])('returns an empty string for prose without SQL: %j', (input) => {
    expect(extractSql(input)).toBe('');
  });
});

describe('extractSql with leading comments', () => {
  it('finds a statement after a block comment', () => {
    expect(extractSql('/* harmless */ DELETE FROM s')).toBe('DELETE FROM s');
  });
  it('finds a statement after a line comment', () => {
    expect(extractSql('-- averages\nSELECT avg(a) FROM s')).toBe('SELECT avg(a) FROM s');
  });
});
