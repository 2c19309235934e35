export { SqlSources, resolveTableName, type SqlSource, type SourcesCatalog } from './sql-sources';
export { qualifyPlan } from './qualify-plan';
export { executeDag, type DagOutcome, type ExecuteOptions } from './execute-dag';
export { PartsCancelledError, SourcePartError, type PartReport } from './run-part';
export type { CombineResult } from './combine';
export { reconcileKeys, describeKeyRule, MIN_KEY_MATCH, type KeyRule } from './join-keys';
export * from './split-demo';
