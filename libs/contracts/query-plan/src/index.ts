export * from './plan';
export * from './check';
export { describeRef, plansIn, subqueriesOf } from './describe';
export * from './join-path';
