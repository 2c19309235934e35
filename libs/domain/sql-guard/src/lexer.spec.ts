import { significant, splitStatements, tokenize, type Token } from './lexer';

const kinds = (tokens: Token[]): string[] => tokens.map((t) => `${t.kind}:${t.text}`);

describe('tokenize', () => {
  it('reads words, numbers, strings, operators and punctuation', () => {
    const { tokens, problems } = tokenize("SELECT a, 1.5e3, 'it''s' FROM s WHERE b >= .5");
    expect(problems).toEqual([]);
    expect(kinds(tokens)).toEqual([
      'word:SELECT',
      'word:a',
      'punct:,',
      'number:1.5e3',
      'punct:,',
      "string:'it''s'",
      'word:FROM',
      'word:s',
      'word:WHERE',
      'word:b',
      'operator:>=',
      'number:.5',
    ]);
    expect(tokens[5]?.value).toBe("it's");
  });

  it('reads multi-character operators longest first', () => {
    const ops = tokenize('a->b ->> c || d :: e <> f != g <= h').tokens.filter((t) => t.kind === 'operator');
    expect(ops.map((t) => t.text)).toEqual(['->', '->>', '||', '::', '<>', '!=', '<=']);
  });

  it('reads double-quoted and backtick identifiers with doubled-quote escapes', () => {
    const { tokens } = tokenize('SELECT "Temp ""C""", `my``col` FROM s');
    expect(tokens[1]).toMatchObject({ kind: 'quoted', value: 'Temp "C"', quote: '"' });
    expect(tokens[3]).toMatchObject({ kind: 'quoted', value: 'my`col', quote: '`' });
  });

  it('treats a backtick as an unexpected character where it is not an identifier quote', () => {
    const { tokens, problems } = tokenize('SELECT `a;b` FROM s', { backtickIdentifiers: false });
    expect(problems[0]?.kind).toBe('unexpected-character');
    expect(tokens.some((t) => t.text === ';')).toBe(true);
  });

  it('reads unicode identifiers', () => {
    const { tokens, problems } = tokenize('SELECT température, 温度 FROM capteurs');
    expect(problems).toEqual([]);
    expect(tokens.filter((t) => t.kind === 'word').map((t) => t.text)).toEqual([
      'SELECT',
      'température',
      '温度',
      'FROM',
      'capteurs',
    ]);
  });

  it('keeps comments as tokens and significant() drops them', () => {
    const { tokens } = tokenize('SELECT a -- ; DROP\nFROM /* ; */ s');
    expect(tokens.filter((t) => t.kind === 'comment').map((t) => t.text)).toEqual(['-- ; DROP', '/* ; */']);
    expect(significant(tokens).map((t) => t.text)).toEqual(['SELECT', 'a', 'FROM', 's']);
  });

  it('ends a line comment at a carriage return too, as PostgreSQL does', () => {
    const { tokens } = tokenize('SELECT 1 -- x\r; DROP TABLE t');
    expect(significant(tokens).map((t) => t.text)).toEqual(['SELECT', '1', ';', 'DROP', 'TABLE', 't']);
  });

  it('does not nest block comments, so it never sees less code than an engine', () => {
    const { tokens } = tokenize('SELECT 1 /* a /* b */ ; DROP TABLE t */');
    expect(significant(tokens).map((t) => t.text)).toContain('DROP');
  });

  it('never treats a backslash as a string escape', () => {
    const { tokens } = tokenize("SELECT 'a\\'; DROP TABLE t; --'");
    expect(significant(tokens).map((t) => t.text)).toEqual(['SELECT', "'a\\'", ';', 'DROP', 'TABLE', 't', ';']);
  });

  it.each<[string, string]>([
    ["SELECT 'abc", 'unterminated string literal'],
    ['SELECT "abc', 'unterminated quoted identifier'],
    ['SELECT 1 /* abc', 'unterminated block comment'],
  ])('reports %j as %s', (sql, message) => {
    const { problems } = tokenize(sql);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.kind).toBe('unterminated');
    expect(problems[0]?.message).toContain(message);
  });

  it('reports control characters anywhere, and a dollar sign', () => {
    const { problems } = tokenize("SELECT '\u0000' FROM s\u0007 WHERE $$x$$");
    expect(problems.map((p) => p.kind)).toEqual([
      'control-character',
      'control-character',
      'unexpected-character',
      'unexpected-character',
      'unexpected-character',
      'unexpected-character',
    ]);
    expect(problems[0]?.message).toContain('U+0000');
    expect(problems[2]?.message).toContain('dollar-quoted');
  });

  it('reports a stray comment end', () => {
    expect(tokenize('SELECT a FROM s */').problems[0]?.message).toContain("'*/' at offset 16 closes no comment");
  });

  it('names a no-break space and still lexes the rest', () => {
    const { tokens, problems } = tokenize('SELECT\u00a0a FROM s');
    expect(problems[0]?.message).toContain('U+00A0 (no-break space)');
    expect(tokens.filter((t) => t.kind === 'word').map((t) => t.text)).toEqual(['SELECT', 'a', 'FROM', 's']);
  });

  it('reads t.5 as a qualifier and a number only after a non-name', () => {
    expect(kinds(tokenize('t.c').tokens)).toEqual(['word:t', 'punct:.', 'word:c']);
    expect(kinds(tokenize('(1, .5)').tokens)).toContain('number:.5');
  });
});

describe('splitStatements', () => {
  const split = (sql: string): string[][] => splitStatements(tokenize(sql).tokens).map((s) => s.map((t) => t.text));

  it.each<[string, number]>([
    ['SELECT 1', 1],
    ['SELECT 1;', 1],
    ['SELECT 1; -- done', 1],
    ['SELECT 1;; ;', 1],
    ["SELECT ';' FROM s", 1],
    ['SELECT ";" FROM s', 1],
    ['SELECT a FROM s -- ; DROP', 1],
    ['SELECT a /* ; */ FROM s', 1],
    ['SELECT 1; DROP STREAM s', 2],
    ['SELECT (1; 2)', 2],
    ['SELECT 1; SELECT 2; SELECT 3', 3],
  ])('%j has %i statement(s)', (sql, count) => {
    expect(split(sql)).toHaveLength(count);
  });
});
