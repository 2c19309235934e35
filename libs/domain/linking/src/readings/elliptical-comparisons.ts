import { comparisonCondition, measuresOf } from './expressions';
import { doubt } from './lookup';
import type { ReadingRule } from './state';

/**
 * `average temperature per device, only above 30`: a comparison that names no column of its own
 * refers back to the one measure the request aggregates, row by row (a condition on the aggregate
 * itself is said as one: `whose average is above 30`), and the turn says so. With several
 * measures, or none, which one it means is a doubt.
 */
export const ellipticalComparisons: ReadingRule = {
  name: 'elliptical-comparisons',
  apply(s) {
    const measures = measuresOf(s.aggregates.map((a) => a.agg));
    for (const c of s.elliptical) {
      const focus = measures.length === 1 ? measures[0] : undefined;
      if (!focus) {
        doubt(s, `no column for "${c.text}"`);
        continue;
      }
      const bound = c.op === 'between' ? `between ${c.value} and ${c.high ?? c.value}` : `${c.op} ${c.value}`;
      s.readings.push(`"${c.text}" is read as ${focus.column} ${bound} for each row, before aggregating`);
      s.conditions.push(comparisonCondition(c, focus));
    }
  },
};
