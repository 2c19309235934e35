export * from './local-llm-client';
export { toGrammarJsonSchema } from './grammar-json-schema';
export { localProvider } from './provider';
