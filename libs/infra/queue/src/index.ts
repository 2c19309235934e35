export * from './dispatcher';
export * from './failures';
export * from './infra.module';
export * from './node-runner';
export * from './tokens';
export * from './turn-control';
export * from './workflow-worker';
export * from './run-worker';
