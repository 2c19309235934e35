export { linkRequest, type LinkOptions } from './link';
export { proposePlan, joinKeyOf } from './propose';
export { classifyIntent } from './intent';
export {
  accountTokens,
  fillerReason,
  unexplainedTokens,
  FILLER_REASONS,
  LINK_KINDS,
  type FillerReason,
  type LinkKind,
  type TokenAccount,
} from './reading';
export type * from './types';
