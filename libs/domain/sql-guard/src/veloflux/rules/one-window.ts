import type { VelofluxRule } from '../rule';

/** At most one window in GROUP BY. */
export const oneWindow: VelofluxRule = {
  id: 'one-window',
  check(q, out) {
    const windows = q.groupWindows;
    if (windows.length <= 1) return;
    out.error(
      `only one window is allowed in GROUP BY, found ${windows.length} (${windows.map((w) => w.name).join(', ')}); keep one`,
    );
  },
};
