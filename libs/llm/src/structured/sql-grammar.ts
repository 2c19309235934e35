import { MAX_STRUCTURED_TEXT } from './catalog-schemas';
import { SQL_TYPE_WORDS, isPlainSqlIdentifier, sqlKeywordsOf, type SqlVocabulary } from './sql-vocabulary';

/**
 * GBNF (llama.cpp grammars) that constrain SQL *text* so that every name in it comes from the
 * grounded catalog. It is a lexical grammar, not a SQL parser: a statement is `SELECT` followed by
 * a run of tokens, each one of
 *   - a keyword of the vocabulary (any case; no DDL/DML words exist in it); type names only
 *     as types (`x::DOUBLE`, `TIMESTAMP '…'`, `CAST(x AS DOUBLE)`), never where a name goes,
 *   - a stream or column name exactly as the catalog spells it (bare when it is a plain word,
 *     else double-quoted), or a function name (any case),
 *   - `AS <new name>`: the only place a name outside the catalog may appear (an alias),
 *   - a number, a single-quoted string literal, or an operator/punctuation character.
 * Two words must be separated by whitespace, so the model cannot glue catalog words into an
 * unknown one (`device` + `temperature` → `devicetemperature`). A `;` can only end the output, so
 * there is no second statement. Structure (clause order, balanced parentheses) is left to the engine's
 * validation, which the workflow runs anyway.
 *
 * The statement is bounded (`maxSteps` words, each with the punctuation before it; bounded
 * literals), so a small model that starts looping (`a.a.a.a…`) must still end, and a generation
 * is complete within about `6 × maxSteps` tokens: give the call at least that many.
 *
 * Limits, by design: an alias can be declared but not referenced later (a grammar cannot
 * remember which names were declared), so `ORDER BY avg_temp` must repeat the expression;
 * table aliases (`FROM s AS x` then `x.col`) are not available either.
 */
export interface SqlGrammarOptions {
  /**
   * When set (e.g. `QUESTION:`), the output may instead be this prefix and one line of free text:
   * the drafter's way to ask the person rather than guess.
   */
  questionPrefix?: string;
  /** Most words after SELECT (each with the punctuation before it). Default 64. */
  maxSteps?: number;
}

/** Enough for a windowed aggregate with a filter and grouping (~20) with room to spare. */
const DEFAULT_MAX_STEPS = 64;

/** A GBNF string literal for `text`. */
function literal(text: string): string {
  return JSON.stringify(text);
}

/** A case-insensitive GBNF sequence for an ASCII word (`select` → `[sS][eE][lL]...`). */
function anyCase(word: string): string {
  return [...word]
    .map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : literal(c)))
    .join(' ');
}

type Context = 'text' | 'json';

/** Rules for the SQL token stream; `json` writes it as the inside of a JSON string. */
function sqlRules(vocabulary: SqlVocabulary, context: Context, maxSteps: number): string[] {
  // Inside a JSON string a double quote is `\"` and a newline is `\n`; raw text uses them as is.
  const dq = context === 'json' ? literal('\\"') : literal('"');
  const newline = context === 'json' ? literal('\\n') : '"\\n"';
  const stringChar = context === 'json' ? `[^'"\\\\\\x00-\\x1f]` : `[^'\\n]`;

  const exactNames = [...new Set([...vocabulary.streams, ...vocabulary.columns])];
  const quoted = exactNames.map((n) => `${dq} ${literal(n)} ${dq}`);
  const bare = exactNames.filter(isPlainSqlIdentifier).map(literal);
  const functions = [...new Set(vocabulary.functions.filter(isPlainSqlIdentifier).map((f) => f.toUpperCase()))];
  const allKeywords = sqlKeywordsOf(vocabulary).filter((k) => k !== 'AS' && k !== 'SELECT');
  // Type names only where a type goes: `x::DOUBLE`, `TIMESTAMP '…'` (and `CAST(x AS DOUBLE)`,
  // through AS). Allowed anywhere, small models write them as columns (`WHERE timestamp > 30`).
  const types = allKeywords.filter((k) => SQL_TYPE_WORDS.has(k));
  const keywords = allKeywords.filter((k) => !SQL_TYPE_WORDS.has(k));

  // A GBNF rule cannot be empty, so a kind of word the vocabulary lacks is left out altogether.
  const words: [string, string[]][] = [
    ['sql-keyword', keywords.map(anyCase)],
    ['sql-name', [...bare, ...quoted]],
    ['sql-function', functions.map(anyCase)],
  ];
  const typed = types.length ? ['sql-typed'] : [];
  const present = words.filter(([, items]) => items.length > 0);
  return [
    // An optional `;` may end the statement, and nothing can follow it: a model trained to end
    // SQL with `;` would otherwise be pushed to keep writing (it had nowhere else to stop).
    // SELECT is followed by whitespace (small models otherwise write `SELECT: 10` and go on
    // listing `key: value` lines), then the first word, possibly after punctuation (`*`, `(`).
    `sql ::= sql-select sql-ws (sql-puncts sql-ws?)? sql-word sql-step{0,${maxSteps - 1}} (sql-ws? sql-puncts)? sql-end?`,
    // A step goes from one word to the next: through whitespace, or through up to four
    // punctuation characters. Words are thus always apart, while `f(x)` or `a.b` need no blanks.
    // Each text has exactly one parse: an ambiguous grammar (e.g. a punctuation run that could be
    // split between steps) multiplies llama.cpp's parse stacks and made sampling ~20× slower.
    // A cast (`::` then a type) is a step of its own, as type names are not words.
    `sql-step ::= sql-ws sql-word | sql-ws? sql-puncts sql-ws? sql-word${types.length ? ' | sql-ws? (sql-puncts sql-ws?)? "::" sql-type' : ''}`,
    `sql-puncts ::= sql-punct (sql-ws? sql-punct){0,3}`,
    `sql-word ::= ${[...present.map(([rule]) => rule), ...typed, 'sql-alias', 'sql-number', 'sql-string'].join(' | ')}`,
    `sql-select ::= ${anyCase('SELECT')}`,
    ...present.map(([rule, items]) => `${rule} ::= ${items.join(' | ')}`),
    ...(types.length
      ? [`sql-type ::= ${types.map(anyCase).join(' | ')}`, 'sql-typed ::= sql-type sql-ws? sql-string']
      : []),
    `sql-alias ::= ${anyCase('AS')} sql-ws [a-zA-Z_] [a-zA-Z0-9_]{0,39}`,
    `sql-number ::= [0-9]{1,12} ("." [0-9]{1,6})?`,
    `sql-string ::= "'" ${stringChar}{0,64} "'"`,
    // No `;` (one statement only) and no quote characters outside the rules above; `-` is last
    // because llama.cpp's grammar parser has no `\-` escape.
    `sql-punct ::= [(),.*+/%=<>!|:-]`,
    `sql-end ::= " "? ";"`,
    // Bounded runs of whitespace: small models under a grammar otherwise loop on blanks.
    `sql-ws ::= (" " | ${newline}) " "{0,3}`,
  ];
}

/**
 * A GBNF grammar whose every output is `SELECT …` naming only the vocabulary (see the rules
 * above), or, with `questionPrefix`, one question line. Pass it as `grammar` to
 * {@link LocalLlmClient.text} for the drafter's free-text SQL.
 */
export function sqlGrammarFor(vocabulary: SqlVocabulary, options: SqlGrammarOptions = {}): string {
  const root = options.questionPrefix
    ? `root ::= sql | ${literal(options.questionPrefix)} " "? [^\\n]{1,${MAX_STRUCTURED_TEXT}}`
    : 'root ::= sql';
  return [root, ...sqlRules(vocabulary, 'text', options.maxSteps ?? DEFAULT_MAX_STEPS)].join('\n');
}

/**
 * A GBNF grammar for the revise output `{"sql": …, "questions": […], "assumptions": […]}` in
 * which `sql` is null or a JSON string holding SQL constrained like {@link sqlGrammarFor}. Use it
 * together with {@link reviseSchemaFor} (which still validates the parsed value):
 * `local.json({ …, schema: reviseSchemaFor(v), grammar: reviseGrammarFor(v) })`.
 */
export function reviseGrammarFor(vocabulary: SqlVocabulary, options: Pick<SqlGrammarOptions, 'maxSteps'> = {}): string {
  const list = (max: number) => `"[" ws (text ("," ws text){0,${max - 1}})? ws "]"`;
  return [
    `root ::= "{" ws "\\"sql\\":" ws ("null" | "\\"" sql "\\"") "," ws "\\"questions\\":" ws questions "," ws "\\"assumptions\\":" ws assumptions ws "}"`,
    `questions ::= ${list(3)}`,
    `assumptions ::= ${list(3)}`,
    `text ::= "\\"" ([^"\\\\\\x00-\\x1f] | "\\\\" ["\\\\/nt]){0,${MAX_STRUCTURED_TEXT}} "\\""`,
    `ws ::= [ \\n]{0,2}`,
    ...sqlRules(vocabulary, 'json', options.maxSteps ?? DEFAULT_MAX_STEPS),
  ].join('\n');
}
