import {
  BadGatewayException,
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  Logger,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { targetProfile, TargetQueryError } from '@nl2p/engine';
import type { Envelope, RunResult } from '@nl2p/envelope';
import { CatalogService } from '../streams/catalog.service';

/** Rows a run returns when the caller names no limit. */
export const DEFAULT_RUN_ROWS = 1_000;

/**
 * Runs a session's answer beyond its preview: the SQL the engine accepted in the session's last
 * check (never text from the caller), through the target's read-only guard and time limit, up to
 * `RUN_ROWS_MAX` rows whatever the caller asks. Streaming engines have no rows before a pipeline
 * runs, and the product never applies one, so they have nothing to run.
 */
@Injectable()
export class RunService {
  private readonly logger = new Logger(RunService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly catalog: CatalogService,
  ) {}

  async run(e: Envelope, askedLimit: number | undefined): Promise<RunResult> {
    const sql = this.runnableSql(e);
    const engine = this.catalog.engineFor(e.target);
    if (!engine.run) {
      throw new BadRequestException(
        `${targetProfile(e.target).label} has no rows to run: a streaming query's rows exist once you apply its pipeline request`,
      );
    }
    const limit = Math.min(askedLimit ?? DEFAULT_RUN_ROWS, this.config.sqlTargets.runRowsMax);
    const started = performance.now();
    try {
      const result = await engine.run(sql, limit);
      const elapsed_ms = Math.round(performance.now() - started);
      return { session_id: e.session_id, turn_id: e.turn_id, sql, ...result, limit, elapsed_ms };
    } catch (err) {
      // The database's verdict (refused, time limit, a failing query) is the caller's to read.
      if (err instanceof TargetQueryError) throw new BadRequestException(err.message);
      this.logger.warn(`running session ${e.session_id} failed: ${err instanceof Error ? err.message : String(err)}`);
      throw new BadGatewayException(
        `the ${targetProfile(e.target).label} engine could not run the query; try again later`,
      );
    }
  }

  /** The session's SQL, when the engine accepted it and no turn is changing it. */
  private runnableSql(e: Envelope): string {
    if (e.status === 'running') throw new ConflictException('a turn is running: run the answer once it stops');
    if (e.sources === 'all') {
      throw new BadRequestException(
        'a session over all sources answers with its combined rows; there is no SQL to run',
      );
    }
    if (!e.draft.sql || !e.validation.ok) {
      throw new BadRequestException(
        'this session has no SQL the engine accepted: ask a request, or fix the edited SQL',
      );
    }
    return e.draft.sql;
  }
}
