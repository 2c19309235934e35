export { Gateway, type GlossaryFields, type GatewayOptions, type TurnBody } from './client';
export { GatewayError } from './errors';
export { followTurn, type FollowOptions } from './follow-turn';
export type * from './openapi';
