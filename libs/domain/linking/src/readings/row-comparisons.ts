import type { ComparisonLink } from '../types';
import { comparisonCondition } from './expressions';
import { column, doubt, ref, resolve, term, use } from './lookup';
import type { ReadingRule, ReadingState, Resolved } from './state';

/**
 * Comparisons with a number as row conditions (`temperature above 30`, `fare between 10 and 20`),
 * `or` joining one to the one before. Left for later: one on an aggregate (having), one naming no
 * column (elliptical comparisons), one said of a noun (having, once the grouping is known).
 */
export const rowComparisons: ReadingRule = {
  name: 'row-comparisons',
  apply(s) {
    let previousWasComparison = false;
    for (const c of s.links.comparisons) {
      const r = c.aggregate ? null : comparedColumn(s, c);
      const readApart = !!c.aggregate || !r || (c.owner !== null && c.op !== 'between');
      // An `or` joins two row conditions only: with either side read elsewhere (a HAVING, a
      // comparison said of a noun, one naming no column) the two would be ANDed, another question.
      const joinable = previousWasComparison;
      if (c.orWithPrevious && (readApart || !joinable))
        doubt(s, `"or" joins "${c.text}" to a comparison read apart from it`);
      previousWasComparison = !readApart;
      if (c.aggregate) {
        if (c.op !== 'between') s.pendingHaving.push({ op: c.op, value: c.value, fn: c.aggregate, rows: c.countsRows });
        continue;
      }
      if (!r) {
        // Refers back to what the request computes, if anything: decided once the aggregates are known.
        s.elliptical.push(c);
        continue;
      }
      if (readApart) {
        // About the grouped thing or about the rows: decided once the grouping is known.
        s.owned.push({ c, r, op: c.op as Exclude<typeof c.op, 'between'> });
        continue;
      }
      const condition = comparisonCondition(c, ref(s, r));
      s.comparedBy.set(c, condition);
      const previous = s.conditions[s.conditions.length - 1];
      if (c.orWithPrevious && previous && joinable) {
        // `temperature above 30 or humidity above 80`: either one.
        s.conditions[s.conditions.length - 1] = {
          kind: 'or',
          conditions: [...(previous.kind === 'or' ? previous.conditions : [previous]), condition],
        };
      } else s.conditions.push(condition);
    }
  },
};

/** The column a comparison is about: its subject's measure, or a column its unit or comparative evokes. */
function comparedColumn(s: ReadingState, c: ComparisonLink): Resolved | null {
  const subject = c.subject !== null ? term(s, c.subject) : undefined;
  const r = subject ? (resolve(s, subject, { measure: true }) ?? resolve(s, subject, { numeric: true })) : null;
  if (r && subject) use(s, subject);
  if (r) return r;
  const hinted = c.hinted.find((h) => s.scope.includes(h.table) && column(s, h)?.numeric);
  const info = hinted && column(s, hinted);
  return hinted && info ? { table: hinted.table, info, score: hinted.score } : null;
}
