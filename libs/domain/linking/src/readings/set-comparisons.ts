import { parseQueryPlan, type Condition } from '@nl2p/query-plan';
import type { SetComparisonLink, TermLink } from '../types';
import { doubt, ref, resolve, term, use } from './lookup';
import type { ReadingRule, ReadingState, Resolved } from './state';

/**
 * Comparisons with an aggregate of a set (`products priced above the average price`, `accounts
 * whose balance is below the largest balance`): the row's measure compared with one value, the
 * aggregate of that measure over every row of its table (a sub-query, computed once; the
 * request's other conditions narrow the rows compared, not the set, as "the average" says of the
 * whole table). The measure compared is the one said before the cue, else the aggregate's own
 * (`players that got more than the average points`); two different measures, or none, are a
 * doubt rather than a guess. `or` between two of them is either one. A stream has no sub-query:
 * veloFlux cannot run one.
 */
export const setComparisons: ReadingRule = {
  name: 'set-comparisons',
  apply(s) {
    let previous: { link: SetComparisonLink; at: number } | null = null;
    for (const c of s.links.setComparisons) {
      const condition = conditionOf(s, c);
      if (!condition) continue;
      const before = previous ? s.conditions[previous.at] : undefined;
      if (previous && before && saidWithOr(s, previous.link, c)) {
        s.conditions[previous.at] = { kind: 'or', conditions: [before, condition] };
        continue;
      }
      previous = { link: c, at: s.conditions.length };
      s.conditions.push(condition);
    }
  },
};

function conditionOf(s: ReadingState, c: SetComparisonLink): Condition | null {
  const a = s.links.aggregates[c.aggregate];
  if (!a || (a.fn !== 'avg' && a.fn !== 'max' && a.fn !== 'min')) return null;
  if (s.schema.streaming) return fail(s, c, 'a stream cannot be compared with a sub-query (veloFlux runs none)');
  const target = c.target !== null ? term(s, c.target) : undefined;
  const subject = c.subject !== null ? term(s, c.subject) : undefined;
  const measured = target ? measureOf(s, target) : null;
  const compared = subject ? measureOf(s, subject) : measured;
  if (target && !measured) return fail(s, c, `"${target.text}" is no measure in scope`);
  if (!compared) return fail(s, c, 'no measure is said to compare');
  const set = measured ?? compared;
  if (set.table !== compared.table || set.info.label !== compared.info.label)
    return fail(s, c, `it compares ${compared.info.column} with ${set.info.column}`);
  for (const t of [subject, target, ...cueTerms(s, c)]) use(s, t);
  s.readings.push(`"${c.text}" is read as the ${a.fn} of ${set.info.column} over every row of ${set.table}`);
  return {
    kind: 'compare_subquery',
    left: { kind: 'column', ref: ref(s, compared) },
    op: c.op,
    quantifier: 'single',
    subquery: {
      plan: parseQueryPlan({
        source: set.table,
        select: [
          { kind: 'aggregate', aggregate: { fn: a.fn, arg: { kind: 'column', ref: { ...ref(s, set), table: null } } } },
        ],
      }),
      correlate: [],
    },
  };
}

/** The numeric column a term names in scope: a measure first, then any number. */
function measureOf(s: ReadingState, t: TermLink): Resolved | null {
  return resolve(s, t, { measure: true }) ?? resolve(s, t, { numeric: true });
}

/** Terms inside the comparison's own words before its aggregate (`bigger` in `bigger than`, read as a size): the cue's. */
function cueTerms(s: ReadingState, c: SetComparisonLink): TermLink[] {
  const a = s.links.aggregates[c.aggregate];
  return s.links.terms.filter((t) => t.start >= c.start && t.end <= (a?.start ?? c.start));
}

/** `a height above the average or a number of floors above the average`: `or` between the two. */
function saidWithOr(s: ReadingState, first: SetComparisonLink, second: SetComparisonLink): boolean {
  const subject = second.subject !== null ? term(s, second.subject) : undefined;
  const upTo = Math.min(second.start, subject?.start ?? second.start);
  return s.links.tokens.slice(first.end, upTo).some((w) => w.toLowerCase() === 'or');
}

function fail(s: ReadingState, c: SetComparisonLink, why: string): null {
  doubt(s, `"${c.text}" compares with an aggregate, but ${why}`);
  return null;
}
