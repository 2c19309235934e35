export * from './dispatcher';
export * from './infra.module';
export * from './node-runner';
export * from './tokens';
export * from './workflow-worker';
export * from './run-worker';
