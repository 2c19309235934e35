export * from './explainer-nodes';
export * from './grounding';
export * from './llm-nodes';
export * from './validator-nodes';
export * from './clients';
export * from './worker-core.module';
export * from './vocabulary';
export * from './answer-nodes';
