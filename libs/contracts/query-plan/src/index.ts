export * from './plan';
export * from './check';
export { describeMeasure, describeRef, measureParts, plansIn, subqueriesOf } from './describe';
export * from './join-path';
