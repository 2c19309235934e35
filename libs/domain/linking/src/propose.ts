import { COMPOSITIONS, type CompositionContext } from './compositions';
import { linkRequest } from './link';
import { READING_RULES } from './readings';
import { conclusion, noProposal } from './readings/conclusion';
import { newReadingState } from './readings/state';
import { buildIndex } from './schema-index';
import type { LinkSchema, Links, PlanProposal } from './types';

export { joinKeyOf } from './readings/join-key';

/**
 * The request's words, turned into the plan they most likely mean: a composition when the request
 * is made of parts read on their own (COMPOSITIONS: a ratio of two sides), else the readings
 * (READING_RULES) run in order over the links.
 */
export function proposePlan(links: Links, schema: LinkSchema): PlanProposal {
  const ctx: CompositionContext = {
    schema,
    read(text) {
      const parts = linkRequest(text, schema, { now: links.now ? new Date(links.now) : undefined });
      return { links: parts, proposal: proposePlan(parts, schema) };
    },
    readLinks: (l) => readLinks(l, schema),
  };
  for (const c of COMPOSITIONS) {
    const composed = c.compose(links, ctx);
    if (composed) return composed;
  }
  return readLinks(links, schema);
}

/** The readings (READING_RULES) in order over the links. */
function readLinks(links: Links, schema: LinkSchema): PlanProposal {
  const state = newReadingState(links, schema, buildIndex(schema));
  for (const rule of READING_RULES) {
    rule.apply(state);
    if (state.none) return noProposal(state);
  }
  return conclusion(state);
}
