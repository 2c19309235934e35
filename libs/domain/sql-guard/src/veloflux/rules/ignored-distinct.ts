import type { VelofluxRule } from '../rule';

/** SELECT DISTINCT parses, and duplicates are still emitted: a warning. */
export const ignoredDistinct: VelofluxRule = {
  id: 'ignored-distinct',
  check(q, out) {
    if (q.select.distinctAt === undefined) return;
    out.warn(
      'SELECT DISTINCT is ignored by veloFlux (duplicates are still emitted); remove DISTINCT, or use deduplicate(x) inside a window',
      q.select.distinctAt,
    );
  },
};
