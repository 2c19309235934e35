import type { VelofluxRule } from '../rule';

/** EXTRACT(part FROM ts): veloFlux has a function per part. */
export const extract: VelofluxRule = {
  id: 'extract',
  check(q, out) {
    for (const { index, word } of q.keywords) {
      if (word !== 'extract') continue;
      out.error(
        'EXTRACT is not supported by veloFlux; use the time functions hour(ts), minute(ts), second(ts), day_of_month(ts), month(ts), day_of_week(ts)',
        index,
      );
    }
  },
};
