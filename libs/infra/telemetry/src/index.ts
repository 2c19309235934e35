export * from './call-recorder';
