import type { AppConfig, SqlSourceConfig } from '@nl2p/config';
import type { Column, TargetKind } from '@nl2p/envelope';
import { qualify, splitQualified } from '@nl2p/execution-dag';
import type { ForeignKey } from '@nl2p/query-plan';
import type { QueryCompiler } from '../compiler';
import type { ColumnValues } from '../sql/column-values';
import { DuckDbTarget } from '../duckdb/duckdb-target';
import { PostgresTarget } from '../postgres/postgres-target';
import type { SqlDatabaseTarget } from '../sql/sql-database-target';
import { targetProfile } from '../targets';

/** One configured source, reachable: its adapter runs its parts under the part row limit. */
export interface SqlSource {
  name: string;
  engine: TargetKind;
  /** `DuckDB`, `PostgreSQL`. */
  label: string;
  target: SqlDatabaseTarget;
  compiler: QueryCompiler;
}

/** Every source's tables under source-qualified names, for linking, checking and decomposing. */
export interface SourcesCatalog {
  /** `source.table` → columns. */
  tables: Record<string, Column[]>;
  /** `source.table` → declared keys (foreign keys name the source's own tables, qualified here too). */
  keys: Record<string, { primaryKey?: string[]; foreignKeys?: ForeignKey[] }>;
  /** A table name found in more than one source → those sources: naming it alone is a question. */
  shared: Record<string, string[]>;
  /** Sources whose catalog could not be read, with why. */
  unreadable: { source: string; error: string }[];
}

/**
 * The deployment's SQL sources (`SQL_SOURCES`), each with its own adapter. A part's rows are read
 * as the adapter's preview with the part row limit as its size, so "more rows than the limit" is
 * the preview's own `truncated`, and every part keeps the adapter's read-only checks and time limit.
 */
export class SqlSources {
  readonly list: SqlSource[];
  /** Rows one part may return; a part reaching it is never joined. */
  readonly rowLimit: number;
  /** Time one part (and the combine) may take. */
  readonly queryTimeoutMs: number;
  /** How long the sources' column values are kept (the catalog TTL, as a single target's catalog is). */
  private readonly valuesTtlMs: number;
  private values: { at: number; read: Promise<ColumnValues> } | null = null;

  constructor(
    configs: readonly SqlSourceConfig[],
    limits: { rowLimit: number; queryTimeoutMs: number; valuesTtlSeconds?: number },
  ) {
    this.list = configs.map((c) => openSource(c, limits));
    this.rowLimit = limits.rowLimit;
    this.queryTimeoutMs = limits.queryTimeoutMs;
    this.valuesTtlMs = (limits.valuesTtlSeconds ?? 300) * 1000;
  }

  static fromConfig(config: AppConfig): SqlSources {
    return new SqlSources(config.sources.list, {
      ...config.sources,
      valuesTtlSeconds: config.retention.catalogTtlSeconds,
    });
  }

  get(name: string): SqlSource | undefined {
    return this.list.find((s) => s.name === name);
  }

  /** Reads every source's tables; a source that cannot be read is listed, not fatal here. */
  async catalog(): Promise<SourcesCatalog> {
    const out: SourcesCatalog = { tables: {}, keys: {}, shared: {}, unreadable: [] };
    const seen = new Map<string, string[]>();
    const read = await Promise.allSettled(this.list.map((s) => s.target.listStreams()));
    read.forEach((result, i) => {
      const source = this.list[i];
      if (result.status === 'rejected') {
        out.unreadable.push({ source: source.name, error: errorText(result.reason) });
        return;
      }
      for (const t of result.value) {
        const name = qualify(source.name, t.name);
        out.tables[name] = t.columns;
        out.keys[name] = {
          primaryKey: t.primaryKey,
          foreignKeys: t.foreignKeys?.map((fk) => ({ ...fk, references: { ...fk.references, table: qualify(source.name, fk.references.table) } })),
        }; // prettier-ignore
        seen.set(t.name, [...(seen.get(t.name) ?? []), source.name]);
      }
    });
    for (const [table, sources] of seen) if (sources.length > 1) out.shared[table] = sources;
    return out;
  }

  /**
   * Every source's column values (the distinct short values of its text columns) under
   * source-qualified table names, so a request's 'Germany' links to `crm.customers.country` as it
   * does on a single target. Read through each source's own catalog load and kept for the catalog
   * TTL; a source that cannot be read adds none, and is read again next time.
   */
  columnValues(): Promise<ColumnValues> {
    const now = Date.now();
    if (!this.values || now - this.values.at > this.valuesTtlMs) this.values = { at: now, read: this.readValues() };
    return this.values.read;
  }

  private async readValues(): Promise<ColumnValues> {
    const read = await Promise.allSettled(this.list.map((s) => s.target.loadCatalog()));
    const out: ColumnValues = {};
    read.forEach((result, i) => {
      const source = this.list[i];
      if (result.status === 'rejected' || !source) return;
      for (const [table, columns] of Object.entries(result.value.values ?? {}))
        out[qualify(source.name, table)] = columns;
    });
    if (read.some((r) => r.status === 'rejected')) this.values = null;
    return out;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.list.map((s) => s.target.close()));
  }
}

function openSource(c: SqlSourceConfig, limits: { rowLimit: number; queryTimeoutMs: number }): SqlSource {
  const profile = targetProfile(c.engine);
  const target =
    c.engine === 'duckdb'
      ? new DuckDbTarget({ path: c.path ?? '', previewRows: limits.rowLimit, queryTimeoutMs: limits.queryTimeoutMs })
      : new PostgresTarget({
          connectionString: c.url ?? '',
          schema: c.schema,
          previewRows: limits.rowLimit,
          statementTimeoutMs: limits.queryTimeoutMs,
        });
  return { name: c.name, engine: c.engine, label: profile.label, target, compiler: profile.compiler };
}

/**
 * What a bare table name means across sources: its qualified name when exactly one source has
 * it, a question when several do (never a guess), null when none does.
 */
export function resolveTableName(
  name: string,
  catalog: SourcesCatalog,
): { table: string } | { question: string } | null {
  if (catalog.tables[name] && splitQualified(name)) return { table: name };
  const holders = Object.keys(catalog.tables).filter((t) => splitQualified(t)?.table === name);
  if (holders.length === 1) return { table: holders[0] };
  if (holders.length > 1) {
    return {
      question: `The table ${name} exists in ${holders.length} sources (${holders.join(', ')}); which one do you mean?`,
    };
  }
  return null;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
