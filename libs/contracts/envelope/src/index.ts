export * from './envelope';
export * from './events';
export * from './ids';
export * from './failures';
export * from './session-view';
export * from './trace';
