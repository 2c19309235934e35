export * from './catalog-schemas';
export * from './sql-vocabulary';
export * from './sql-grammar';
