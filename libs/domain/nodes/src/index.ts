export * from './explainer-nodes';
export * from './grounding';
export * from './llm-nodes';
export * from './recording-llm';
export * from './validator-nodes';
