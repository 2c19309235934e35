import { VELOFLUX_WINDOWS } from '../../keywords';
import type { VelofluxRule } from '../rule';

/** An aggregate in WHERE (the engine answers Unknown function): the condition belongs in HAVING. */
export const aggregatesInWhere: VelofluxRule = {
  id: 'aggregates-in-where',
  check(q, out) {
    for (const call of q.calls) {
      if (call.clause !== 'where' || call.qualified || VELOFLUX_WINDOWS.has(call.name)) continue;
      if (!q.catalog.aggregates.has(call.name)) continue;
      out.error(
        `aggregate ${call.name}() cannot be called in WHERE (the engine answers Unknown function); put the condition in HAVING, with a window in GROUP BY`,
        call.index,
      );
    }
  },
};
