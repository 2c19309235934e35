export * from './openai-llm-client';
export { openaiProvider } from './provider';
