import { VELOFLUX_WINDOWS } from '../../keywords';
import type { Clause } from '../query';
import type { VelofluxRule } from '../rule';
import { windowExample } from '../wording';

const PLACES: Record<Clause, string> = {
  select: 'the SELECT list',
  from: 'FROM',
  where: 'WHERE',
  group: 'a nested expression',
  having: 'HAVING',
  order: 'ORDER BY',
  limit: 'LIMIT',
  other: 'this position',
};

/** A window is a GROUP BY key at the top level, nowhere else. */
export const windowPlacement: VelofluxRule = {
  id: 'window-placement',
  check(q, out) {
    for (const call of q.calls) {
      if (!VELOFLUX_WINDOWS.has(call.name)) continue;
      if (call.clause === 'group' && q.s.depth[call.index] === 0) continue;
      out.error(
        `${call.name}(…) must be written inside GROUP BY, e.g. GROUP BY device_id, ${windowExample(call.name)}; it cannot appear in ${PLACES[call.clause]}`,
        call.index,
      );
    }
  },
};
