import type { TargetProfile } from '../targets';
import { PostgresTarget } from './postgres-target';
import { postgresCompiler } from './compiler';

export const postgresProfile: TargetProfile = {
  kind: 'postgres',
  label: 'PostgreSQL',
  sourceNoun: 'table',
  streaming: false,
  configured: (config) => Boolean(config.postgres.url),
  enabledBy: 'POSTGRES_URL',
  instance: (config) => config.postgres.url ?? '',
  create: (config) => {
    if (!config.postgres.url) throw new Error('target postgres is not configured: set POSTGRES_URL');
    return new PostgresTarget({
      connectionString: config.postgres.url,
      schema: config.postgres.schema,
      previewRows: config.sqlTargets.previewRows,
      statementTimeoutMs: config.sqlTargets.queryTimeoutMs,
    });
  },
  compiler: postgresCompiler,
};
