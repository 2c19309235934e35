export * from './dag';
export { decomposePlan } from './decompose';
export { combinePlan, combineTables } from './combine-plan';
export * from './source-names';
export { conjuncts } from './plan-refs';
export { checkAcrossSources } from './check-across';
