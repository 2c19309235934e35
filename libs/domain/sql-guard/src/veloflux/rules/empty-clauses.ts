import type { VelofluxRule } from '../rule';

const LABELS = { select: 'SELECT', where: 'WHERE', group: 'GROUP BY', having: 'HAVING', order: 'ORDER BY' } as const;

/** A clause keyword with nothing after it (`SELECT FROM s`, `WHERE GROUP BY …`). */
export const emptyClauses: VelofluxRule = {
  id: 'empty-clauses',
  check(q, out) {
    for (const clause of ['select', 'where', 'group', 'having', 'order'] as const) {
      const range = q.contentRange(clause);
      if (range && range[0] >= range[1]) {
        out.error(`${LABELS[clause]} is empty; complete it or remove it`, q.clauseStart.get(clause));
      }
    }
  },
};
