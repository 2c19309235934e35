export * from './graph';
export * from './history';
export * from './pre-turn';
export * from './queues';
export * from './tmp-pipelines';
