import type { Composition } from './composition';
import { ratios } from './ratios';

export type { Composition, CompositionContext } from './composition';

/**
 * The compositions, tried in order before the plain reading: the first that finds its part in
 * the request reads it. Only ratios today; one composition per request (a request with two
 * parts to compose is read plainly, with what the first composition finds doubtful).
 */
export const COMPOSITIONS: readonly Composition[] = [ratios];
