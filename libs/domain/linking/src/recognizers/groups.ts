import { REQUEST_VERBS } from '../lexicon';
import type { Token } from '../text';
import type { TermLink } from '../types';
import { norm, slice, type LinkRule, type LinkState } from './rule';
import { measureLike } from './term-kinds';
import { ARTICLES } from './words';

const SORT_VERBS = new Set(['sorted', 'sort', 'ranked', 'rank', 'order', 'ordered', 'arranged']);
/** Words between a grouping cue and the noun it groups by. */
const DETERMINERS = ['the', 'each', 'every', 'single', 'individual', 'a', 'an', 'their', 'its'];

/** A grouping cue and where the noun it groups by is looked for. */
interface GroupCue {
  cue: string;
  /** The cue's first token as the group span starts it. */
  at: number;
  from: number;
}

/**
 * Grouping cues and the noun each groups by: `per X`, `for each X`, `by X`, `grouped by X`,
 * `which X`, `X-wise`, `across different X` (`how does it vary across X`), `devices whose average …` (the head of a compound: `country` in `customer
 * country`, with `customer` as its qualifier), carried over a list (`per vendor and borough`).
 * A `by` after a sort verb (`sorted by age`), or after a superlative (`the most expensive
 * products by unit price`), says what to sort on: an order, not a group.
 */
export const groups: LinkRule = {
  name: 'groups',
  apply(s) {
    const hasSuperlative = [...s.aggregateCues.values()].some((c) => c.superlative);
    for (let i = 0; i < s.tokens.length; i++) {
      if (s.taken.has(i)) continue;
      if (clauseGroup(s, i) || wiseGroup(s, i)) continue;
      const said = groupCueAt(s, i);
      if (!said) continue;
      i = Math.max(i, said.at);
      groupAt(s, said, hasSuperlative);
    }
  },
};

function groupCueAt(s: LinkState, i: number): GroupCue | null {
  const w = norm(s, i);
  const next = norm(s, i + 1);
  if (w === 'per' || w === 'each' || w === 'every') return { cue: w, at: i, from: i + 1 };
  // The span starts at `each`: `for` stays a little word.
  if ((w === 'for' || w === 'in') && (next === 'each' || next === 'every'))
    return { cue: `${w} ${next}`, at: i + 1, from: i + 2 };
  if (w === 'by' && !['(', 'and'].includes(next))
    return { cue: 'by', at: SPREAD_VERBS.has(norm(s, i - 1)) ? i - 1 : i, from: i + 1 };
  if (w === 'grouped' || w === 'broken' || w === 'split') {
    if (next === 'by') return { cue: 'grouped by', at: i, from: i + 2 };
    if (next === 'down' && norm(s, i + 2) === 'by') return { cue: 'grouped by', at: i, from: i + 3 };
    return null;
  }
  if ((w === 'which' || w === 'what') && !s.taken.has(i + 1)) return { cue: 'which', at: i, from: i + 1 };
  // `vary across courses`: the verb right before the cue is read with it.
  const at = SPREAD_VERBS.has(norm(s, i - 1)) ? i - 1 : i;
  if (w === 'across' && acrossGroups(s, i)) return { cue: 'across', at, from: ACROSS_KINDS.has(next) ? i + 2 : i + 1 };
  return null;
}

/** `across different courses`, `across each region`: one figure per course (not `across all stores`, a total). */
const ACROSS_KINDS = new Set(['different', 'various', 'distinct', 'individual']);
/** Verbs that ask how a figure is spread: `how does the ratio vary across courses`. */
export const SPREAD_VERBS = new Set([
  'vary',
  'varies',
  'differ',
  'differs',
  'compare',
  'compares',
  'distributed',
  'spread',
]);

/** The verb that asks how the figure spreads is read with the group (taken): it names no data. */
function acrossGroups(s: LinkState, i: number): boolean {
  const next = norm(s, i + 1);
  const verb = s.tokens.slice(Math.max(0, i - 4), i).find((t) => SPREAD_VERBS.has(t.norm));
  if (verb && next !== 'all') s.taken.add(verb.i);
  if (ACROSS_KINDS.has(next) || next === 'each' || next === 'every') return true;
  return next !== 'all' && verb !== undefined;
}

/**
 * `devices whose average temperature exceeds 30`, `products with a total quantity above 50`: the
 * rows are the devices (products), computed per device (grouped only when something is
 * computed, as with `which`).
 */
function clauseGroup(s: LinkState, i: number): boolean {
  const w = norm(s, i);
  const next = ARTICLES.has(norm(s, i + 1)) ? i + 2 : i + 1;
  // `an editor whose work type is 'Photo'` only says which rows: grouped when the clause computes.
  const computes = [0, 1, 2].some((k) => aboutAggregate(s, next + k));
  if (!((w === 'whose' && computes) || (w === 'with' && aboutAggregate(s, next))) || s.taken.has(i - 1)) return false;
  const t = s.termAt.get(i - 1);
  if (t && t.end === i && !t.values.length)
    s.groups.push({
      start: t.start,
      end: i + 1,
      text: slice(s, t.start, i + 1),
      cue: 'which',
      term: t.id,
      qualifiers: [],
    });
  return true;
}

/** An aggregate starts at `k` (`a total quantity …`), or a count of rows (`more than 3 orders`). */
function aboutAggregate(s: LinkState, k: number): boolean {
  return s.aggregateAt.has(k) || s.comparisons.some((c) => c.start === k && c.countsRows);
}

/** `region-wise`. */
function wiseGroup(s: LinkState, i: number): boolean {
  if (norm(s, i) !== 'wise' || !s.tokens[i]?.joined) return false;
  const t = s.termAt.get(i - 1);
  if (t)
    s.groups.push({
      start: t.start,
      end: i + 1,
      text: slice(s, t.start, i + 1),
      cue: 'wise',
      term: t.id,
      qualifiers: [],
    });
  return true;
}

function groupAt(s: LinkState, said: GroupCue, hasSuperlative: boolean): void {
  const { cue, at: i } = said;
  // "each name once" asks for distinct names; "where each device belongs to a site" explains.
  if (cue === 'each' && s.tokens.slice(i + 1, i + 5).some((t) => t.norm === 'once')) return;
  if (cue === 'each' && inWhereClause(s.tokens, i)) return;
  let k = said.from;
  while (k < s.tokens.length && DETERMINERS.includes(norm(s, k))) k++;
  let head = s.termAt.get(k);
  if (!head || head.start !== k || head.values.length) return;
  const qualifiers: number[] = [];
  // A compound noun names its last word: `customer country`, `device model`, `product category`.
  for (
    let next = s.termAt.get(head.end);
    next && !next.values.length && s.tokens[next.start]?.kind === 'word';
    next = s.termAt.get(next.end)
  ) {
    qualifiers.push(head.id);
    head = next;
  }
  if (cue === 'by' && !groupsBy(s, i, head, hasSuperlative)) return;
  if (cue === 'which' && s.tokens[head.start]?.kind !== 'word') return;
  s.groups.push({ start: i, end: head.end, text: slice(s, i, head.end), cue, term: head.id, qualifiers });
  // `per vendor and borough`: the cue carries over a list of keys (not over a measure:
  // `per device and the average temperature` lists what to compute).
  for (let last = head; norm(s, last.end) === 'and' || norm(s, last.end) === ',';) {
    const more = s.termAt.get(last.end + 1);
    if (!more || more.start !== last.end + 1 || more.values.length || measureLike(more, s.index)) break;
    if (s.aggregates.some((a) => a.target && 'term' in a.target && a.target.term === more.id)) break;
    s.groups.push({ start: more.start, end: more.end, text: more.text, cue, term: more.id, qualifiers: [] });
    last = more;
  }
}

/**
 * Whether `by` at `i` groups by `head`. After a sort verb, or a superlative ranking by a number,
 * it is what to sort on (an order is added); after a passive verb (`ordered by customers`) it is
 * neither.
 */
function groupsBy(s: LinkState, i: number, head: TermLink, hasSuperlative: boolean): boolean {
  const verbAt = sortVerbBefore(s, i);
  const prevWord = verbAt === null ? norm(s, i - 1) : norm(s, verbAt);
  const sortKey = (start: number) =>
    s.orders.push({
      start,
      end: head.end,
      text: slice(s, start, head.end),
      direction: null,
      limit: null,
      key: { term: head.id },
      hinted: [],
    });
  if (
    SORT_VERBS.has(prevWord) &&
    !(prevWord === 'ordered' && head.tables.length && !head.columns.some((c) => c.match !== 'partial'))
  ) {
    sortKey(verbAt ?? i - 1);
    return false;
  }
  // A passive agent (`ordered by customers`), not a grouping.
  if (/ed$/.test(prevWord) || REQUEST_VERBS.has(prevWord)) return false;
  // `the most expensive products by unit price`: what the ranking is by.
  const numericHead = head.columns.some(
    (c) => s.index.table(c.table)?.columns.find((x) => x.label === c.label)?.numeric,
  );
  const idLike = head.columns.some((c) => /(^|_)id$/i.test(c.column));
  if (hasSuperlative && numericHead && !idLike && !s.aggregates.some((a) => !a.superlative)) {
    sortKey(i);
    return false;
  }
  return true;
}

/** What a sort verb may take as its object before `by`: `Sort them by`, `Order the results by`. */
const SORTED_THINGS = new Set([
  'them',
  'it',
  'these',
  'those',
  'the',
  'all',
  'result',
  'results',
  'list',
  'rows',
  'records',
  'output',
]);

/** Where the sort verb before the `by` at `i` is, past its object (`sort them by`); null when there is none. */
export function sortVerbBefore(s: LinkState, i: number): number | null {
  for (let k = i - 1; k >= Math.max(0, i - 4); k--) {
    if (SORT_VERBS.has(norm(s, k))) return k;
    if (!SORTED_THINGS.has(norm(s, k))) return null;
  }
  return null;
}

/** Inside a `where …` clause that defines rather than filters (no comparison or value follows). */
function inWhereClause(tokens: readonly Token[], i: number): boolean {
  for (let k = i - 1; k >= 0; k--) {
    const w = tokens[k]?.norm ?? '';
    if (w === '.' || w === '?' || w === ';' || w === '!') return false;
    if (w === 'where' || w === 'whereas' || w === 'assuming' || w === 'given')
      return tokens[k - 1]?.norm === ',' || k > 0;
  }
  return false;
}
