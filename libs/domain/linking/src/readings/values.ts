import type { Condition, Literal } from '@nl2p/query-plan';
import type { TermLink, ValueCandidate } from '../types';
import { doubt, join, ref, TIE, use } from './lookup';
import type { ReadingRule, ReadingState, Resolved } from './state';
import { BARE_ARTICLES } from '../recognizers/words';

interface ValueGroup {
  r: Resolved;
  values: string[];
  negated: boolean;
  /** The terms that said the values. */
  terms: number[];
}

/** The group's values were said as `both A and B`. */
function allOf(s: ReadingState, g: ValueGroup): boolean {
  return s.links.allOf.some((a) => g.terms.length > 1 && g.terms.every((id) => a.terms.includes(id)));
}

/**
 * Values as conditions: `dev-03` → `device_id = 'dev-03'`, several values of one column an IN,
 * a negated one `!=` or NOT IN. A word that is a value of two columns is an ambiguity.
 */
export const values: ReadingRule = {
  name: 'values',
  apply(s) {
    const groups = new Map<string, ValueGroup>();
    // A value naming the set of a comparison (`older than every manager`) is the sub-query's.
    const sets = new Set(s.links.quantifiedComparisons.map((c) => c.set));
    for (const t of s.links.terms) if (t.values.length && !sets.has(t.id) && !isSortKey(s, t)) valueOf(s, t, groups);
    const said = new Map<ValueGroup, Condition>();
    for (const g of groups.values()) {
      const col = ref(s, g.r);
      const lits: Literal[] = g.values.map((value) => ({ kind: 'string', value }));
      const [first, ...rest] = lits;
      if (first && rest.length && allOf(s, g) && !s.intersect) {
        // Rows having each value: this plan with the first, intersected with one per other value.
        const equals = (value: Literal): Condition => ({
          kind: 'compare',
          left: { kind: 'column', ref: col },
          op: '=',
          value,
        });
        s.intersect = { first: equals(first), others: rest.map(equals) };
        s.conditions.push(s.intersect.first);
        s.readings.push(`"both" is read as rows having each of ${g.values.map((v) => `'${v}'`).join(' and ')}`);
        continue;
      }
      const condition: Condition =
        lits.length === 1 && lits[0]
          ? { kind: 'compare', left: { kind: 'column', ref: col }, op: g.negated ? '!=' : '=', value: lits[0] }
          : { kind: 'in', column: col, values: lits, negated: g.negated || undefined };
      said.set(g, condition);
      s.conditions.push(condition);
    }
    eitherOr(s, [...groups.values()], said);
  },
};

/** How far apart two values joined by `or` may be said (`returned or came from Italy`). */
const OR_REACH = 8;

/**
 * `orders that were returned or came from Italy`: values of two columns with `or` between them
 * are either one, never both (an AND would answer another question).
 */
function eitherOr(s: ReadingState, groups: readonly ValueGroup[], said: ReadonlyMap<ValueGroup, Condition>): void {
  const groupOf = new Map(groups.flatMap((g) => g.terms.map((id) => [id, g] as const)));
  const valueTerms = s.links.terms.filter((t) => groupOf.has(t.id)).sort((a, b) => a.start - b.start);
  for (let k = 1; k < valueTerms.length; k++) {
    const [a, b] = [valueTerms[k - 1], valueTerms[k]];
    const [ga, gb] = [a && groupOf.get(a.id), b && groupOf.get(b.id)];
    if (!a || !b || !ga || !gb || ga === gb || b.start - a.end > OR_REACH) continue;
    const between = s.links.tokens.slice(a.end, b.start).map((w) => w.toLowerCase());
    if (!between.includes('or') || between.includes('and')) continue;
    // `East Julianaside, Texas or Gleasonmouth, Arizona` pairs values of two columns: neither an
    // AND of two lists nor this either-or; said, not guessed.
    if (ga.values.length > 1 || gb.values.length > 1) {
      doubt(s, `"or" pairs values of ${ga.r.info.column} and ${gb.r.info.column}`);
      continue;
    }
    const [ca, cb] = [said.get(ga), said.get(gb)];
    if (!ca || !cb || !s.conditions.includes(ca) || !s.conditions.includes(cb)) continue;
    s.conditions = s.conditions.filter((c) => c !== ca && c !== cb);
    s.conditions.push({ kind: 'or', conditions: [ca, cb] });
    s.readings.push(`"${a.text} or ${b.text}" is read as either one`);
  }
}

/** `in the order of their names`: a word said as what to sort on is not also a value to keep. */
function isSortKey(s: ReadingState, t: TermLink): boolean {
  return s.links.orders.some((o) => o.key !== null && 'term' in o.key && o.key.term === t.id && t.columns.length > 0);
}

/** Adds the value the term `t` names to its column's group. */
function valueOf(s: ReadingState, t: TermLink, groups: Map<string, ValueGroup>): void {
  // A word that is a value and also names the table (`sensors` vs `sensor`) counts as a value
  // only when its column is in scope.
  const v =
    byPreposition(s, t) ?? t.values.find((x) => s.scope.includes(x.table)) ?? t.values.find((x) => join(s, x.table));
  if (!v) return;
  const bestOther = Math.max(0, ...t.tables.map((x) => x.score), ...t.columns.map((x) => x.score));
  if (bestOther > v.score + TIE) return;
  // `nurses` over a table `Nurse` whose Position has the value 'Nurse': every row of it is one.
  if (t.tables.some((x) => x.table === v.table && (x.match === 'exact' || x.match === 'plural'))) return;
  const info = s.index.table(v.table)?.columns.find((c) => c.column === v.column && !c.path.length);
  if (!info) return;
  const key = `${v.table}.${v.column}/${t.negated}`;
  const g = groups.get(key) ?? {
    r: { table: v.table, info, score: v.score },
    values: [],
    negated: t.negated,
    terms: [],
  };
  if (!g.values.includes(v.value)) g.values.push(v.value);
  g.terms.push(t.id);
  groups.set(key, g);
  use(s, t);
  const otherColumns = new Set(t.values.filter((x) => s.scope.includes(x.table)).map((x) => x.column));
  if (otherColumns.size > 1 && v !== byPreposition(s, t))
    s.ambiguous.push({ phrase: t.text, candidates: [...otherColumns] });
  // The column named next to its value (`device dev-03`, `books category`, `whose language is
  // not "German"`) is said already.
  for (const n of s.links.terms) {
    if (n.id === t.id || n.values.length) continue;
    if (saidNextTo(s.links.tokens, n, t) && n.columns.some((c) => c.column === v.column && c.table === v.table))
      use(s, n);
  }
}

/**
 * Words that may stand between a column and its value without saying anything else: a verb of
 * being, a negation (already on the value), an article, quotes, `named`, `as`, `equal to`.
 */
const BETWEEN_COLUMN_AND_VALUE = new Set([
  'is', 'are', 'was', 'were', 'be', 'being', 'been', 'not', "isn't", "aren't", "wasn't", "weren't",
  'the', 'a', 'an', 'as', 'equal', 'equals', 'to', 'named', 'called',
  '"', "'", '‘', '’', '“', '”', '`', ':', '=',
]); // prettier-ignore

/** Nothing but such words lies between the two terms, in either order (one other word at most: `the city of New York`). */
function saidNextTo(
  tokens: readonly string[],
  a: { start: number; end: number },
  b: { start: number; end: number },
): boolean {
  const [from, to] = a.end <= b.start ? [a.end, b.start] : [b.end, a.start];
  if (to < from) return false;
  let other = 0;
  for (let k = from; k < to; k++) if (!BETWEEN_COLUMN_AND_VALUE.has((tokens[k] ?? '').toLowerCase())) other++;
  return other <= 1 && to - from <= 5;
}

/** Words that say which of two columns a value belongs to when a column's name holds them. */
const PREPOSITIONS = new Set(['from', 'to', 'in', 'at', 'by', 'for', 'on', 'into', 'via']);

/**
 * A value of several columns said after a preposition that one of them carries in its name:
 * "from LAX to ORD" → `from_airport = 'LAX'`, `to_airport = 'ORD'`. Null when no preposition is
 * said, or when it names none or several of the columns.
 */
function byPreposition(s: ReadingState, t: TermLink): ValueCandidate | null {
  const word = prepositionBefore(s.links.tokens, t.start);
  if (!word) return null;
  // Among the tables in scope when the value is theirs (a `from_airport` in each of several tables).
  const inScope = t.values.filter((x) => s.scope.includes(x.table));
  const columns = (inScope.length ? inScope : t.values).filter((x) => {
    const info = s.index.table(x.table)?.columns.find((c) => c.column === x.column && !c.path.length);
    return info?.readings[0]?.words.includes(word);
  });
  const distinct = new Set(columns.map((x) => `${x.table}.${x.column}`));
  return distinct.size === 1 ? (columns[0] ?? null) : null;
}

/** Most words between a preposition and the value it governs: `from Los Angeles (LAX)`. */
const ASIDE = 4;

/**
 * The preposition a value at `start` is said after: right before it (articles aside), or before
 * the words the value is an aside to (`from Los Angeles (LAX)`); null past a comma or period.
 */
function prepositionBefore(tokens: readonly string[], start: number): string | null {
  const first = (tokens[start - 1] ?? '').toLowerCase();
  const aside = first === '(';
  for (let k = start - 1, words = 0; k >= 0 && words <= (aside ? ASIDE : 0); k--) {
    const w = (tokens[k] ?? '').toLowerCase();
    if (PREPOSITIONS.has(w)) return w;
    if (w === '(' || BARE_ARTICLES.has(w)) continue;
    if (!/\p{L}/u.test(w)) return null;
    words++;
  }
  return null;
}
