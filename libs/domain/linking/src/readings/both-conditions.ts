import { doubt } from './lookup';
import type { ReadingRule, ReadingState } from './state';

/**
 * `types of ships that have both ships above 6000 tons and ships below 4000 tons`: each
 * condition said after `both` (both-conditions) asks its own rows, and the answers are
 * intersected (the plan keeps the first, conclusion adds one per other). Each must have become a
 * row condition of its own, ANDed with the rest: otherwise the `both` is a doubt, never an AND
 * that no row can meet.
 */
export const bothConditions: ReadingRule = {
  name: 'both-conditions',
  apply(s) {
    for (const a of s.links.allOf) {
      if (!a.comparisons) continue;
      if (!intersect(s, a.comparisons, a.text)) doubt(s, `"${a.text}" joins conditions that could not be asked apart`);
    }
  },
};

function intersect(s: ReadingState, comparisons: readonly number[], said: string): boolean {
  const sides = comparisons.map((k) => {
    const c = s.links.comparisons[k];
    return c ? s.comparedBy.get(c) : undefined;
  });
  const [first, ...others] = sides;
  if (!first || s.intersect || !sides.every((c) => c && s.conditions.includes(c))) return false;
  s.conditions = s.conditions.filter((c) => !others.includes(c));
  s.intersect = { first, others: others.flatMap((c) => (c ? [c] : [])) };
  s.readings.push(`"${said}" is read as the answers for each of ${comparisons.length} conditions, intersected`);
  return true;
}
