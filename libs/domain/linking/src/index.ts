export { linkRequest, type LinkOptions } from './link';
export { proposePlan, joinKeyOf } from './propose';
export { classifyIntent } from './intent';
export type * from './types';
