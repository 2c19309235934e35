export * from './processes';
export * from './redis';
