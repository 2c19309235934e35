import type { AggregateFn } from '@nl2p/query-plan';
import { conceptColumns } from '../match';
import type { FoundComparison } from './comparison-cues';
import { FILLER_WORDS, FUNCTION_WORDS, RELATED_WORDS, REQUEST_VERBS } from '../lexicon';
import type { ComparisonLink } from '../types';
import { norm, slice, type LinkRule, type LinkState } from './rule';
import { measureLike } from './term-kinds';
import { ARTICLES } from './words';

/** Words that open a clause about the grouped thing: `whose …`, `with an …`, `where the …`, `having …`. */
const RELATIVE_MARKERS: ReadonlySet<string> = new Set(['whose', 'with', 'where', 'having', 'when', 'if']);
/** Little words between a clause's lead word and its condition. */
const CLAUSE_FILLERS: ReadonlySet<string> = new Set([
  'that',
  'which',
  'those',
  'ones',
  'are',
  'is',
  'were',
  'was',
  'with',
  'where',
  'whose',
]);
/** Words that keep the other rows: `excluding readings below 0`. (`not above` is the comparison's own.) */
const EXCLUSIONS: ReadonlySet<string> = new Set(['excluding', 'except', 'exclude', 'without']);
/** Words between a noun and a condition on it: `products with …`, `devices whose …`, `those having …`. */
const OWNER_MARKERS: ReadonlySet<string> = new Set(['with', 'whose', 'having']);

/**
 * What each comparison is about: the column said between cue and number (`north of latitude
 * 50`), the noun counted (`more than 3 passengers`), the measure before the cue (`humidity was
 * below`), an aggregate (`whose average temperature exceeds 30`: a HAVING), or the rows
 * themselves (`more than 5 orders`); and the clause it sits in (the noun it is said of, whether it
 * excludes, whether `or` joins it to the one before).
 */
export const comparisons: LinkRule = {
  name: 'comparisons',
  apply(s) {
    s.comparisons = s.comparisonCues.map((c) => comparisonOf(s, c));
  },
};

function comparisonOf(s: LinkState, c: FoundComparison): ComparisonLink {
  const said = subjectOf(s, c);
  const subject = said.subject;
  let aggregate = said.aggregate ?? aggregateNamedWith(s, c, subject);
  // `more than 5 orders`, `more than 2 corresponding documents`: a count of rows.
  const afterNumber = s.termAt.get(RELATED_WORDS.has(norm(s, c.numberEnd)) ? c.numberEnd + 1 : c.numberEnd);
  // `two or more browsers`: the noun counted follows the trailing cue.
  const after = afterNumber ?? (c.postfixAt !== null ? s.termAt.get(c.end) : undefined);
  // `nominated more than two times`, `used less than 5 times`: how many rows say it.
  const times = ['time', 'times'].includes(norm(s, c.numberEnd)) && c.op !== 'between' && subject === null;
  const countsRows =
    times || (!!after && subject !== after.id && after.tables.length > 0 && !after.values.length && c.op !== 'between');
  const hinted = c.hintWords.flatMap((w) => conceptColumns(s.index, w));
  if (countsRows) aggregate = 'count';
  const end = times ? c.numberEnd + 1 : countsRows && after ? after.end : c.end;
  return {
    start: c.start,
    end,
    text: slice(s, c.start, end),
    op: c.op,
    value: c.value,
    high: c.high,
    unit: c.unit,
    subject,
    hinted,
    aggregate,
    countsRows,
    ...clauseOf(s, c, subject),
  };
}

/** The term compared, or an aggregate said right before the cue (`the average was above`). */
function subjectOf(s: LinkState, c: FoundComparison): { subject: number | null; aggregate: AggregateFn | null } {
  let subject: number | null = null;
  // Between cue and number (`north of latitude 50`).
  for (let k = c.cueEnd; k < c.numberAt; k++) {
    const t = s.termAt.get(k);
    if (t && (t.columns.length || t.tables.length)) subject = t.id;
  }
  // The noun counted by the number (`more than 3 passengers` → passenger_cnt).
  const counted = s.termAt.get(c.numberEnd);
  if (
    subject === null &&
    counted &&
    counted.start === c.numberEnd &&
    !counted.values.length &&
    measureLike(counted, s.index)
  )
    subject = counted.id;
  if (subject !== null) return { subject, aggregate: null };
  // Before the cue, over verbs and function words (`humidity was below`, `a quantity of at least`).
  for (let k = c.cueStart - 1; k >= Math.max(0, c.cueStart - 5); k--) {
    const t = s.termAt.get(k);
    if (t) {
      const measure = t.columns.length && !t.values.length && measureLike(t, s.index);
      return { subject: measure ? t.id : null, aggregate: null };
    }
    const ai = s.aggregateAt.get(k);
    if (ai !== undefined) return { subject: null, aggregate: s.aggregates[ai]?.fn ?? null };
    const w = norm(s, k);
    if (s.tokens[k]?.kind === 'punct') break;
    if (!FUNCTION_WORDS.has(w) && !REQUEST_VERBS.has(w) && !FILLER_WORDS.has(w) && !/(ed|ing)$/.test(w)) break;
  }
  return { subject: null, aggregate: null };
}

/**
 * `devices whose average temperature exceeds 30`, `with an average humidity above 60`: the
 * measure is named with its aggregate in a clause about the grouped thing, so the comparison is
 * about the aggregate (a HAVING), not about each row.
 */
function aggregateNamedWith(s: LinkState, c: FoundComparison, subject: number | null): AggregateFn | null {
  if (subject === null) return null;
  const named = s.aggregates.find(
    (a) => a.target && 'term' in a.target && a.target.term === subject && a.end <= c.cueStart,
  );
  const before = named ? named.start - (ARTICLES.has(norm(s, named.start - 1)) ? 2 : 1) : -1;
  return named && !named.superlative && RELATIVE_MARKERS.has(norm(s, before)) ? named.fn : null;
}

/**
 * The clause the comparison is in. The noun it is about (`products` in `only products with more
 * than 10 units`): whether it is the grouped thing or the rows decides between HAVING and WHERE
 * once the grouping is known. What leads into it, past the rows' noun and little words:
 * `excluding readings below 0` (the rows kept are the others), `… or with a fare above 50`.
 */
function clauseOf(
  s: LinkState,
  c: FoundComparison,
  subject: number | null,
): Pick<ComparisonLink, 'owner' | 'excluded' | 'orWithPrevious'> {
  const subjectTerm = subject !== null ? s.terms[subject] : undefined;
  const clauseStart = subjectTerm && subjectTerm.start < c.cueStart ? subjectTerm.start : c.start;
  let n = clauseStart - 1;
  while (n >= 0 && n >= clauseStart - 6) {
    const t = s.termAt.get(n);
    if (t && t.tables.length && !t.values.length) n = t.start - 1;
    else if (ARTICLES.has(norm(s, n)) || CLAUSE_FILLERS.has(norm(s, n))) n--;
    else break;
  }
  const excluded = EXCLUSIONS.has(norm(s, n));
  const orWithPrevious = norm(s, n) === 'or' || (norm(s, n) === 'either' && norm(s, n - 1) === 'or');
  let k = clauseStart - 1;
  while (k >= 0 && ARTICLES.has(norm(s, k))) k--;
  const ownerTerm = OWNER_MARKERS.has(norm(s, k)) ? s.termAt.get(k - 1) : undefined;
  const owner = ownerTerm && ownerTerm.end === k && !ownerTerm.values.length ? ownerTerm.id : null;
  return { owner, excluded, orWithPrevious };
}
