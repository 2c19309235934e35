import type { Envelope, Reading, Resolution } from '@nl2p/envelope';
import type { Links, LinkSchema } from '@nl2p/linking';
import type { Condition, Literal, QueryPlan } from '@nl2p/query-plan';

/**
 * What a request says, as evidence a drafted condition can be checked against (issue 23: a model
 * must not add a filter that no word of the request supports). Built from the linker's links of
 * the request (every candidate of every term, not only the best), the numbers, dates and values
 * the reading recognised, and the conditions the reading itself proposed.
 *
 * Column names are kept bare and lower-cased: model SQL names tables through aliases, and a
 * column a word names in one table is evidence enough for the same column reached through a join.
 */
export interface RequestEvidence {
  /** The request, lower-cased: a string literal said in it word for word is evidence. */
  text: string;
  /** Columns some word of the request links to (any candidate), bare and lower-cased. */
  columns: ReadonlySet<string>;
  /** Tables some word of the request links to, lower-cased. */
  tables: ReadonlySet<string>;
  /** Text values the request names (value links, quoted strings, the reading's literals), lower-cased. */
  values: ReadonlySet<string>;
  /** Numbers the request says (digits, number words the linker read, comparison bounds). */
  numbers: ReadonlySet<number>;
  /** Bounds of the time ranges the reading recognised (`2019-01-01`), and the reading's own timestamps. */
  dates: ReadonlySet<string>;
  /** Whether the request reads a time range at all (`last week`, `in March`). */
  timeRange: boolean;
  /** Whether a word of the request says a value is absent (`missing`, `without`, `no`): a NULL test's evidence. */
  absence: boolean;
  /** Conditions the reading proposed, as `conditionKey`s: the linker's own reading is evidence. */
  proposed: ReadonlySet<string>;
  /** Time and date columns of the schema, bare and lower-cased. */
  temporalColumns: ReadonlySet<string>;
}

/**
 * Words that say a value is absent. General English, not any schema's: a NULL test is the one
 * condition without a literal to be said, so its evidence is one of these beside its column.
 */
const ABSENCE_WORDS: ReadonlySet<string> = new Set([
  'missing',
  'null',
  'nulls',
  'empty',
  'blank',
  'unknown',
  'unset',
  'without',
  'lacking',
  'lack',
  'no',
  'none',
  'absent',
  'undefined',
  'unspecified',
]);

/**
 * Everything the person said for this turn: the request, their answers to its questions, and
 * their feedback on a draft. A condition an answer asks for ("more than 10") is theirs: without
 * the answers, a turn that asked would ask the same again.
 */
export function wordsOfTurn(e: Pick<Envelope, 'request' | 'answers' | 'feedback'>): string {
  return [e.request ?? '', ...e.answers.map((a) => a.answer), e.feedback ?? ''].filter(Boolean).join(' . ');
}

/** The evidence `request` gives, from its links, its reading, and the person's explained words. */
export function requestEvidence(
  links: Links,
  schema: LinkSchema,
  reading: Reading | null,
  resolutions: readonly Resolution[] = [],
): RequestEvidence {
  const columns = new Set<string>();
  const tables = new Set<string>();
  const values = new Set<string>();
  const numbers = new Set<number>();
  const dates = new Set<string>();
  collectTermEvidence(links, { columns, tables, values });
  collectNumbers(links, numbers);
  for (const r of links.timeRanges) for (const bound of [r.from, r.to]) if (bound) dates.add(bound.slice(0, 10));
  for (const quoted of links.text.matchAll(/['"‘“]([^'"’”]{1,80})['"’”]/g)) values.add(quoted[1].toLowerCase());
  for (const r of resolutions) if (r.means.kind === 'column') columns.add(r.means.column.toLowerCase());
  const proposed = new Set<string>();
  if (reading?.plan) collectProposed(reading.plan, { proposed, values, numbers, dates });
  return {
    text: links.text.toLowerCase(),
    columns,
    tables,
    values,
    numbers,
    dates,
    timeRange: links.timeRanges.length > 0,
    absence: links.tokens.some((t) => ABSENCE_WORDS.has(t.toLowerCase())),
    proposed,
    temporalColumns: temporalColumnsOf(schema),
  };
}

function collectTermEvidence(
  links: Links,
  into: { columns: Set<string>; tables: Set<string>; values: Set<string> },
): void {
  for (const t of links.terms) {
    for (const c of t.columns) into.columns.add(c.column.toLowerCase());
    for (const c of t.tables) into.tables.add(c.table.toLowerCase());
    for (const v of t.values) {
      into.values.add(v.value.toLowerCase());
      // A value said names its column too (`orders from Italy` is about `country`).
      into.columns.add(v.column.toLowerCase());
    }
  }
  const hinted = [
    ...links.comparisons.flatMap((c) => c.hinted),
    ...links.numbers.flatMap((n) => n.unitColumns),
    ...links.orders.flatMap((o) => o.hinted),
  ];
  for (const c of hinted) into.columns.add(c.column.toLowerCase());
  for (const m of links.textMatches) into.values.add(m.value.toLowerCase());
}

/** Every number the request says, and its percent reading (`40 percent` may be 0.4 or 40). */
function collectNumbers(links: Links, numbers: Set<number>): void {
  const said = [
    ...links.numbers.map((n) => n.value),
    ...links.comparisons.flatMap((c) => (c.high === null ? [c.value] : [c.value, c.high])),
    ...[...links.text.matchAll(/\d+(?:\.\d+)?/g)].map((m) => Number(m[0])),
  ];
  for (const n of said) {
    numbers.add(n);
    numbers.add(n / 100);
  }
}

/** The reading's own conditions (as keys) and literals: what the linker read is evidence. */
function collectProposed(
  plan: QueryPlan,
  into: { proposed: Set<string>; values: Set<string>; numbers: Set<number>; dates: Set<string> },
): void {
  for (const c of conjuncts(plan.where)) into.proposed.add(conditionKey(c));
  for (const h of plan.having) into.numbers.add(h.value);
  for (const l of literalsIn(plan.where)) {
    if (l.kind === 'number') into.numbers.add(l.value);
    else if (l.kind === 'timestamp') into.dates.add(l.value.slice(0, 10));
    else if (l.kind === 'string') into.values.add(l.value.toLowerCase());
  }
}

/** The top-level AND parts of a condition (the condition itself when it is not an AND). */
export function conjuncts(c: Condition | null): Condition[] {
  if (!c) return [];
  return c.kind === 'and' ? c.conditions.flatMap(conjuncts) : [c];
}

/** A condition's identity for comparison, tables left aside (a plan may name its source or not). */
export function conditionKey(c: Condition): string {
  return JSON.stringify(c, (key, value: unknown) => (key === 'table' ? undefined : value));
}

/** Every literal a condition compares with (not those of its sub-plans). */
export function literalsIn(c: Condition | null): Literal[] {
  if (!c) return [];
  switch (c.kind) {
    case 'compare':
      return [c.value];
    case 'in':
      return c.values;
    case 'between':
      return [c.low, c.high];
    case 'text':
      return [{ kind: 'string', value: c.value }];
    case 'and':
    case 'or':
      return c.conditions.flatMap(literalsIn);
    case 'not':
      return literalsIn(c.condition);
    default:
      return [];
  }
}

function temporalColumnsOf(schema: LinkSchema): Set<string> {
  const out = new Set<string>();
  for (const columns of Object.values(schema.tables)) {
    for (const c of columns) if (/date|time/i.test(c.data_type)) out.add(c.name.toLowerCase());
  }
  return out;
}
