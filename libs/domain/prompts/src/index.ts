export * from './grounding-text';
export * from './prompts';
