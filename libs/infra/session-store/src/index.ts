export * from './catalog-cache';
export * from './event-log';
export * from './keys';
export * from './session-store';
export * from './trace-log';
export * from './event-hub';
export * from './glossary-store';
export { ExampleStore, exampleId } from './example-store';
