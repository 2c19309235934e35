import type { VelofluxRule } from '../rule';
import { findColumn } from '../query';

/** Output names: distinct, not an input column's name, not one of the planner's own names. */
export const selectAliases: VelofluxRule = {
  id: 'select-aliases',
  check(q, out) {
    const seen = new Set<string>();
    for (const { name, index } of q.select.aliases) {
      if (seen.has(name)) out.error(`alias '${name}' is used twice; give every SELECT item a distinct alias`, index);
      seen.add(name);
      if (q.columns && findColumn(q.columns, name)) {
        out.error(
          `alias '${name}' collides with the input column '${name}' (veloFlux rejects that); choose another alias such as '${name}_value'`,
          index,
        );
      }
      if (name.startsWith('__vf_') || /^col_\d+$/.test(name)) {
        out.error(
          `alias '${name}' is reserved by veloFlux (no '__vf_' prefix, no 'col_<n>'); choose another alias`,
          index,
        );
      }
    }
  },
};
