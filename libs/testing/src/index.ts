export * from './scripted-llm';
export * from './fake-manager';
export * from './recorded-exchanges';
export * from './live-engine';
export * from '@nl2p/launcher';
export * from './mqtt-broker';
