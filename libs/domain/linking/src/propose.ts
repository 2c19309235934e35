import { READING_RULES } from './readings';
import { conclusion, noProposal } from './readings/conclusion';
import { newReadingState } from './readings/state';
import { buildIndex } from './schema-index';
import type { LinkSchema, Links, PlanProposal } from './types';

export { joinKeyOf } from './readings/join-key';

/** The request's words, turned into the plan they most likely mean: the readings (READING_RULES) run in order over the links. */
export function proposePlan(links: Links, schema: LinkSchema): PlanProposal {
  const state = newReadingState(links, schema, buildIndex(schema));
  for (const rule of READING_RULES) {
    rule.apply(state);
    if (state.none) return noProposal(state);
  }
  return conclusion(state);
}
