import type { Moment } from './moments';
import { add } from './moments';
import { pushRange, takeRange, type RangeParser } from './range-scan';

/** Quarters: `Q1 2024`, `in Q3 2023`. */
export const quarters: RangeParser = (scan) => {
  const { tokens } = scan;
  for (let i = 0; i < tokens.length; i++) {
    if (scan.taken.has(i)) continue;
    const q = /^q([1-4])$/.exec(tokens[i]?.norm ?? '');
    const y = tokens[i + 1]?.kind === 'number' ? Number(tokens[i + 1]?.norm) : NaN;
    if (q && y >= 1900 && y < 2200) {
      const start: Moment = { year: y, month: (Number(q[1]) - 1) * 3 + 1, day: 1, hour: 0, minute: 0, second: 0 };
      const idx = [i, i + 1];
      if (['in', 'during', 'for', 'of'].includes(tokens[i - 1]?.norm ?? '')) idx.unshift(i - 1);
      pushRange(scan, idx, start, add(start, 'month', 3));
      takeRange(scan, idx);
    }
  }
};
