export * from './call-recorder';
export * from './otel';
