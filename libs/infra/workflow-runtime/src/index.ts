// The workflow runtime: runs the graph's nodes as BullMQ jobs (load the checkpoint, execute the
// node, advance: checkpoint, events, trace and the next job at once), turn control and cancel,
// failure kinds and retries, and the workers' lifecycle (probes, graceful stop).

export * from './dispatcher';
export * from './failures';
export * from './infra.module';
export * from './node-runner';
export * from './tokens';
export * from './turn-control';
export * from './workflow-worker';
export * from './redis-at-boot';
export * from './run-worker';
export * from './queue-depth';
export * from './worker-lifecycle';
