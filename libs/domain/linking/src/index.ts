export { linkRequest, type LinkOptions } from './link';
export { proposePlan, joinKeyOf } from './propose';
export { classifyIntent } from './intent';
export { unusedTerms } from './plan-use';
export { fillerReason, FILLER_REASONS, type FillerReason } from './lexicon';
export { accountTokens, unexplainedTokens, LINK_KINDS, type LinkKind, type TokenAccount } from './reading';
export type * from './types';
