export * from './port';
export * from './extract-json';
export * from './openai-llm-client';
