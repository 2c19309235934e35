import type { Preview } from '@nl2p/envelope';
import { QueryTimeLimitError, TargetQueryError, type ValidationResult } from '../port';

/**
 * The second half of validating on a SQL target (ARCHITECTURE §7): after `EXPLAIN` accepted the
 * query, it runs read-only with the row limit and the time limit. A query that fails when it
 * runs (a failed cast, a type mismatch the planner let through) is an engine verdict for the
 * repair loop, never an accepted answer. Running past the time limit says nothing against the
 * SQL, so it stays accepted, with the reason there are no rows.
 */
export async function runForValidation(tmpId: string, run: () => Promise<Preview>): Promise<ValidationResult> {
  try {
    return { ok: true, tmpId, preview: await run() };
  } catch (err) {
    if (err instanceof QueryTimeLimitError) return { ok: true, tmpId, previewError: err.message };
    if (err instanceof TargetQueryError) {
      return { ok: false, tmpId, kind: 'semantic', error: `the query failed when it ran: ${err.message}` };
    }
    throw err;
  }
}
