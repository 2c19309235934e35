export * from './plan';
export * from './check';
export { columnsOf, describeAggregate, describeRef, plansIn, subqueriesOf } from './describe';
export * from './join-path';
