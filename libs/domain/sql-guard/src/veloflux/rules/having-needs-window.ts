import type { VelofluxRule } from '../rule';

/** HAVING is decided per window: without one there is nothing to decide it on. */
export const havingNeedsWindow: VelofluxRule = {
  id: 'having-needs-window',
  check(q, out) {
    if (!q.clauseStart.has('having') || q.groupWindows.length > 0) return;
    out.error(
      "HAVING requires a window in GROUP BY in veloFlux, e.g. GROUP BY tumblingwindow('ss', 10) HAVING count(*) > 100; add a window or move the condition to WHERE",
    );
  },
};
