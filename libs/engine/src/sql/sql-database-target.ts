import { isTmpPipelineId, TMP_PIPELINE_PREFIX, type Preview, type TargetKind } from '@nl2p/envelope';
import type { Catalog, EngineTarget, StreamInfo, ValidationResult } from '../port';
import { jsonSafe } from './json-values';
import { previewQuery, RefusedQueryError, type ReadOnlyGuard } from './read-only-guard';
import { runForValidation } from './run-for-validation';

/**
 * What DuckDB and PostgreSQL do alike as targets (ARCHITECTURE §7): a text passes the database's
 * read-only guard (its own parser) before the database sees it; validation is then `EXPLAIN` and a
 * read-only run for the preview; nothing is created, so explaining or cleaning up by temp id only
 * checks the id; there is no pipeline request to hand back. Each database supplies its guard, its
 * `EXPLAIN`, what its errors mean, and how it reads rows.
 */
export abstract class SqlDatabaseTarget implements EngineTarget {
  abstract readonly kind: TargetKind;
  /** The database's name in messages (`refused before reaching DuckDB: …`). */
  protected abstract readonly label: string;
  /** Rows a preview returns (one more is read to tell whether there are more). */
  protected abstract readonly previewRows: number;
  /** Exactly one read-only SELECT, by the database's own parser. */
  protected abstract readonly guard: ReadOnlyGuard;

  abstract listStreams(): Promise<StreamInfo[]>;
  abstract describeStream(name: string): Promise<StreamInfo | null>;
  abstract loadCatalog(): Promise<Catalog>;
  abstract close(): Promise<void>;

  /** The database's `EXPLAIN` of a SELECT the guard accepted; its errors as they come. */
  protected abstract planOf(sql: string): Promise<string>;
  /** A failed `EXPLAIN` while validating: the database's verdict on the SQL, or (thrown) its own trouble. */
  protected abstract planRejection(err: unknown, tmpId: string): ValidationResult;
  /** Runs the preview query read-only and time-limited; failures as `TargetQueryError`s. */
  protected abstract readRows(previewSql: string): Promise<{ columns: string[]; rows: unknown[][] }>;
  /** A failed `EXPLAIN` outside validation, as thrown to the caller of {@link explainSql}. */
  protected explainFailure(err: unknown): unknown {
    return err;
  }

  /**
   * The guard, then `EXPLAIN`, then a read-only run: the database's verdicts come back as
   * `{ok: false}` with its own message (a refused text too, without reaching the database);
   * trouble of the database itself (time limit, connection, I/O) is thrown.
   */
  async validate(sql: string, tmpId: string): Promise<ValidationResult> {
    assertTmpId(tmpId);
    const verdict = await this.guard(sql);
    if (!verdict.ok) {
      return {
        ok: false,
        tmpId,
        kind: verdict.cause === 'parse' ? 'syntax' : 'semantic',
        error: `refused before reaching ${this.label}: ${verdict.reason}`,
      };
    }
    try {
      await this.planOf(sql);
    } catch (err) {
      return this.planRejection(err, tmpId);
    }
    return runForValidation(tmpId, () => this.preview(sql));
  }

  /** The `EXPLAIN` plan of `sql` (validation created nothing under `tmpId` to read back). */
  async explain(tmpId: string, sql: string): Promise<string> {
    assertTmpId(tmpId);
    return this.explainSql(sql);
  }

  /** The `EXPLAIN` plan of a SELECT, checked like {@link preview}; for callers that hold the SQL. */
  async explainSql(sql: string): Promise<string> {
    await this.refuseUnlessReadOnly(sql);
    try {
      return await this.planOf(sql);
    } catch (err) {
      throw this.explainFailure(err);
    }
  }

  /** Forgets the plan; there is nothing in the database to delete. */
  async cleanup(tmpId: string): Promise<void> {
    assertTmpId(tmpId);
  }

  /** SQL targets have no pipeline to apply: the output is the SQL and its preview. */
  buildPipelineRequest(): null {
    return null;
  }

  /**
   * The first {@link previewRows} rows of the SELECT, read-only and time-limited, with JSON-safe
   * values. Throws a `TargetQueryError` when the text is refused, the query fails, or it runs past
   * the time limit.
   */
  async preview(sql: string): Promise<Preview> {
    return this.run(sql, this.previewRows);
  }

  /**
   * Up to `limit` rows of the SELECT, under the same guard and time limit as the preview (the
   * caller bounds `limit`); `truncated` says the query had more.
   */
  async run(sql: string, limit: number): Promise<Preview> {
    await this.refuseUnlessReadOnly(sql);
    const { columns, rows } = await this.readRows(previewQuery(sql, limit + 1));
    return {
      columns,
      rows: rows.slice(0, limit).map((row) => row.map(jsonSafe)),
      truncated: rows.length > limit,
    };
  }

  private async refuseUnlessReadOnly(sql: string): Promise<void> {
    const verdict = await this.guard(sql);
    if (!verdict.ok) throw new RefusedQueryError(verdict.reason, verdict.cause);
  }
}

export function assertTmpId(id: string): void {
  if (!isTmpPipelineId(id)) {
    throw new Error(`refusing temp id ${JSON.stringify(id)}: temp ids start with ${TMP_PIPELINE_PREFIX}`);
  }
}
