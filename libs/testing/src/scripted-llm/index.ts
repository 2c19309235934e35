export * from './scripted-llm';
