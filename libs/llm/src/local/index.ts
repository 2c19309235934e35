export * from './local-llm-client';
export { toGrammarJsonSchema } from './grammar-json-schema';
