export * from './scripted-llm';
export * from './fake-manager';
