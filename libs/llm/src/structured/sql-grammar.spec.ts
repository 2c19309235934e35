import { reviseGrammarFor, sqlGrammarFor } from './sql-grammar';
import type { SqlVocabulary } from './sql-vocabulary';

const vocabulary: SqlVocabulary = {
  streams: ['sensor_stream', 'Weird Stream'],
  columns: ['device_id', 'temperature'],
  functions: ['avg', 'bad-name'],
};

/** The right-hand side of one rule of a GBNF text. */
function rule(grammar: string, name: string): string {
  const line = grammar.split('\n').find((l) => l.startsWith(`${name} ::= `));
  if (!line) throw new Error(`no rule ${name}`);
  return line.slice(name.length + 5);
}

// Whether llama.cpp accepts these grammars, and that generations under them only name catalog
// identifiers, is tested with the real model in local-llm-client.int-spec.ts.
describe('sqlGrammarFor', () => {
  const grammar = sqlGrammarFor(vocabulary);

  it('enumerates exactly the catalog names, quoting the ones that are not plain words', () => {
    expect(rule(grammar, 'sql-name')).toBe(
      '"sensor_stream" | "device_id" | "temperature" | "\\"" "sensor_stream" "\\"" | "\\"" "Weird Stream" "\\"" | ' +
        '"\\"" "device_id" "\\"" | "\\"" "temperature" "\\""',
    );
  });

  it('lets functions be written in any case and drops names that cannot be spelled bare', () => {
    expect(rule(grammar, 'sql-function')).toBe('[aA] [vV] [gG]');
  });

  it('allows a free name only right after AS', () => {
    const free = grammar.split('\n').filter((l) => l.includes('[a-zA-Z_]'));
    expect(free).toEqual([expect.stringMatching(/^sql-alias ::= \[aA\] \[sS\] sql-ws /)]);
  });

  it('allows `;` only as the very end (no second statement) and has no DDL/DML words', () => {
    expect(rule(grammar, 'sql-punct')).not.toContain(';');
    expect(grammar.split('\n').filter((l) => l.includes(';'))).toEqual(['sql-end ::= " "? ";"']);
    expect(rule(grammar, 'sql')).toMatch(/ sql-end\?$/);
    for (const word of ['DROP', 'DELETE', 'INSERT', 'UPDATE', 'CREATE', 'ALTER']) {
      expect(rule(grammar, 'sql-keyword')).not.toContain([...word].map((c) => `[${c.toLowerCase()}${c}]`).join(' '));
    }
  });

  it('starts with SELECT, or with the question prefix when one is given', () => {
    expect(rule(grammar, 'root')).toBe('sql');
    expect(rule(sqlGrammarFor(vocabulary, { questionPrefix: 'QUESTION:' }), 'root')).toBe(
      'sql | "QUESTION:" " "? [^\\n]{1,200}',
    );
  });

  it('admits type names only where a type goes, not as words', () => {
    const timestamp = '[tT] [iI] [mM] [eE] [sS] [tT] [aA] [mM] [pP]';
    expect(rule(grammar, 'sql-keyword')).not.toContain(timestamp);
    expect(rule(grammar, 'sql-type')).toContain(timestamp);
    expect(rule(grammar, 'sql-typed')).toBe('sql-type sql-ws? sql-string');
    expect(rule(grammar, 'sql-step')).toContain('"::" sql-type');
    expect(rule(grammar, 'sql-word')).toContain('sql-typed');
  });

  it('bounds the statement so a looping model must end', () => {
    expect(rule(grammar, 'sql')).toBe(
      'sql-select sql-ws (sql-puncts sql-ws?)? sql-word sql-step{0,63} (sql-ws? sql-puncts)? sql-end?',
    );
    expect(rule(sqlGrammarFor(vocabulary, { maxSteps: 10 }), 'sql')).toBe(
      'sql-select sql-ws (sql-puncts sql-ws?)? sql-word sql-step{0,9} (sql-ws? sql-puncts)? sql-end?',
    );
  });

  it('leaves out a kind of word the vocabulary has none of (GBNF rules cannot be empty)', () => {
    const noFunctions = sqlGrammarFor({ ...vocabulary, functions: [] });
    expect(noFunctions).not.toContain('sql-function');
  });
});

describe('reviseGrammarFor', () => {
  it('writes SQL inside a JSON string: escaped quotes and newlines, no raw ones', () => {
    const grammar = reviseGrammarFor(vocabulary);
    expect(rule(grammar, 'root')).toContain('("null" | "\\"" sql "\\"")');
    expect(rule(grammar, 'sql-name')).toContain('"\\\\\\"" "Weird Stream" "\\\\\\""');
    expect(rule(grammar, 'sql-ws')).toBe('(" " | "\\\\n") " "{0,3}');
    expect(rule(grammar, 'sql-string')).toBe(`"'" [^'"\\\\\\x00-\\x1f]{0,64} "'"`);
  });
});
