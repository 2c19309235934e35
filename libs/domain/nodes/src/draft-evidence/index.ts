export { requestEvidence, wordsOfTurn, type RequestEvidence } from './request-evidence';
export { evidenced, type ConditionFacts } from './judge';
export { groundModelPlan, type GroundedDraft } from './plan-evidence';
export { groundModelSql } from './sql-evidence';
