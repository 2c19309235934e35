import type { VelofluxRule } from '../rule';

/** TIMESTAMP '…', DATE '…', TIME '…': times are Unix epoch numbers in veloFlux. */
export const typedLiterals: VelofluxRule = {
  id: 'typed-literals',
  check(q, out) {
    for (const ref of q.refs) {
      if (ref.kind !== 'typed-literal') continue;
      out.error(
        `typed literals like ${ref.word.toUpperCase()} ${ref.literal} are not supported by veloFlux; compare with a Unix epoch number instead, or use from_unix_time(seconds)`,
        ref.index,
      );
    }
  },
};
