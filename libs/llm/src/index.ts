export * from './port';
export * from './extract-json';
export * from './openai-llm-client';
export * from './local';
export * from './structured';
