export * from './plan';
export * from './check';
