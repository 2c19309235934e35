export * from './port';
export * from './extract-json';
export * from './provider';
export * from './providers';
export * from './openai';
export * from './local';
export * from './structured';
