export * from './plan';
export * from './check';
export {
  columnsOf,
  describeAggregate,
  describeMeasure,
  describeRef,
  measureParts,
  plansIn,
  subqueriesOf,
} from './describe';
export * from './join-path';
