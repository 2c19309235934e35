import type { LinkSchema, Links, PlanProposal } from '../types';

/** What a composition may do besides reading its own links: read another request over the same schema. */
export interface CompositionContext {
  schema: LinkSchema;
  /** The whole reading (links and READING_RULES, compositions included) of `text`, on the same day as the request. */
  read(text: string): { links: Links; proposal: PlanProposal };
  /** The plain reading of the request's own links (READING_RULES only). */
  readLinks(links: Links): PlanProposal;
}

/**
 * A reading of a whole request made of readings of its parts (`the ratio of A to B`: A and B are
 * each read as a request of their own, then composed into one plan). Null when the request has
 * no such part; otherwise the proposal, composed or, when the parts do not fit together, the
 * plain reading with a doubt saying why (never a plan that silently drops the composition).
 */
export interface Composition {
  name: string;
  compose(links: Links, ctx: CompositionContext): PlanProposal | null;
}
