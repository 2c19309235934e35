import { z } from 'zod';

/** The SQL engines a source may live on (veloFlux stays one target per session). */
export const SQL_SOURCE_ENGINES = ['duckdb', 'postgres'] as const;
export type SqlSourceEngine = (typeof SQL_SOURCE_ENGINES)[number];

/** One named SQL source: where its tables live. Its name qualifies its tables (`orders.customers`). */
export interface SqlSourceConfig {
  name: string;
  engine: SqlSourceEngine;
  /** DuckDB: the database file (opened read-only). */
  path?: string;
  /** PostgreSQL: the connection string, without the `#schema` fragment. */
  url?: string;
  /** PostgreSQL: the schema whose tables are the source's (`#schema`, default `public`). */
  schema?: string;
}

/** A source name: it prefixes table names, so it must read as one identifier. */
const SOURCE_NAME = /^[a-z][a-z0-9_]{0,31}$/;

/**
 * `SQL_SOURCES`: comma-separated `name=engine:location` entries, e.g.
 * `orders=postgres:postgres://app@db:5432/shop#sales,telemetry=duckdb:data/telemetry.duckdb`.
 * Every bad entry gets its own issue naming its position and name — never its location, which
 * may hold a password.
 */
export const SqlSourcesSchema = z
  .string()
  .optional()
  .transform((raw, ctx): SqlSourceConfig[] | undefined => {
    if (raw === undefined) return undefined;
    const entries = raw
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const parsed: SqlSourceConfig[] = [];
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      const outcome = parseEntry(entry);
      const label = `entry ${i + 1}${outcome.name ? ` (${outcome.name})` : ''}`;
      if ('error' in outcome) {
        ctx.addIssue({ code: 'custom', message: `${label}: ${outcome.error}` });
        return;
      }
      if (seen.has(outcome.source.name)) {
        ctx.addIssue({ code: 'custom', message: `${label}: the name ${outcome.source.name} is used twice` });
        return;
      }
      seen.add(outcome.source.name);
      parsed.push(outcome.source);
    });
    if (entries.length === 0) ctx.addIssue({ code: 'custom', message: 'no source given; leave it unset instead' });
    return parsed;
  });

type EntryOutcome = { name?: string; source: SqlSourceConfig } | { name?: string; error: string };

function parseEntry(entry: string): EntryOutcome {
  const eq = entry.indexOf('=');
  if (eq < 0) return { error: 'expected name=engine:location (e.g. telemetry=duckdb:data/t.duckdb)' };
  const name = entry.slice(0, eq).trim();
  const rest = entry.slice(eq + 1).trim();
  if (!SOURCE_NAME.test(name))
    return {
      error: `the name must be lower-case letters, digits and _ (starting with a letter), got "${name.slice(0, 40)}"`,
    };
  const colon = rest.indexOf(':');
  const engine = colon < 0 ? rest : rest.slice(0, colon);
  const location = colon < 0 ? '' : rest.slice(colon + 1).trim();
  if (!(SQL_SOURCE_ENGINES as readonly string[]).includes(engine))
    return { name, error: `the engine must be one of ${SQL_SOURCE_ENGINES.join(', ')}, got "${engine.slice(0, 20)}"` };
  if (!location) return { name, error: `no location after ${engine}: (a file for duckdb, a URL for postgres)` };
  if (engine === 'duckdb') return { name, source: { name, engine: 'duckdb', path: location } };
  const hash = location.indexOf('#');
  const url = hash < 0 ? location : location.slice(0, hash);
  const schema = hash < 0 ? 'public' : location.slice(hash + 1);
  if (!/^postgres(ql)?:\/\/[^\s]+$/.test(url) || !URL.canParse(url))
    return { name, error: 'the location must be a postgres:// URL' };
  if (!/^[A-Za-z_][A-Za-z0-9_$]*$/.test(schema)) return { name, error: 'the #schema must be one identifier' };
  return { name, source: { name, engine: 'postgres', url, schema } };
}

/**
 * The sources of a deployment: `SQL_SOURCES` when set, else the SQL targets it already has
 * (`duckdb` from `DUCKDB_PATH`, and `postgres` when `POSTGRES_URL` is set), named by their engine.
 */
export function defaultSqlSources(
  configured: SqlSourceConfig[] | undefined,
  duckdbPath: string,
  postgres: { url: string | undefined; schema: string },
): SqlSourceConfig[] {
  if (configured) return configured;
  const sources: SqlSourceConfig[] = [{ name: 'duckdb', engine: 'duckdb', path: duckdbPath }];
  if (postgres.url) sources.push({ name: 'postgres', engine: 'postgres', url: postgres.url, schema: postgres.schema });
  return sources;
}
