import type { VelofluxRule } from '../rule';

/** veloFlux resolves output aliases only in later SELECT items, WHERE and ORDER BY. */
export const aliasPlacement: VelofluxRule = {
  id: 'alias-placement',
  check(q, out) {
    for (const ref of q.refs) {
      if (ref.kind !== 'alias') continue;
      if (ref.clause !== 'group' && ref.clause !== 'having' && !ref.inWindowArgs) continue;
      const where = ref.inWindowArgs ? 'window arguments' : ref.clause === 'group' ? 'GROUP BY' : 'HAVING';
      out.error(
        `alias '${ref.name}' cannot be used in ${where} (veloFlux supports aliases only in later SELECT items, WHERE and ORDER BY); repeat the expression instead`,
        ref.index,
      );
    }
  },
};
