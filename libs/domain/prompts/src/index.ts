export * from './grounding-text';
export * from './prompts';
export * from './plan-prompts';
export * from './answer-prompts';
export * from './reading-hint';
