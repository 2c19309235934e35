export * from './port';
export * from './manager-client';
export * from './veloflux/veloflux-target';
export * from './veloflux/classify';
export * from './veloflux/catalog';
