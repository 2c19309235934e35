import type { Findings } from '../findings';
import type { Structure } from '../structure';
import type { Grounding } from '../types';
import { analyzeVeloflux } from './query';
import { VELOFLUX_RULES } from './rules';

/**
 * veloFlux-specific checks (contract §7) over one SELECT whose statement-level safety has already
 * been established: the analysis step, then every rule over its facts.
 */
export function checkVeloflux(structure: Structure, grounding: Grounding, out: Findings): void {
  const query = analyzeVeloflux(structure, grounding);
  for (const rule of VELOFLUX_RULES) rule.check(query, out);
}
