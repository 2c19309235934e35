export * from './grounding-text';
export * from './prompts';
export * from './plan-prompts';
