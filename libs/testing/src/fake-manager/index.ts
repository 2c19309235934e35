export * from './fake-manager';
