import { targetProfile } from '@nl2p/engine';
import type { TargetKind } from '@nl2p/envelope';
import { assertSingleSelect } from '@nl2p/sql-guard';
import type { Conversation } from './conversation';

/** How a conversation ended. */
export type Outcome =
  /** The engine accepted the SQL (`need_confirm`). */
  | 'sql'
  /** The product asked the person a question (router or drafter). */
  | 'clarification'
  /** The attempt budget ran out (`give_up`). */
  | 'gave_up'
  /** The turn ended normally with another kind of answer (the router chose to list or describe streams). */
  | 'other_answer'
  /** The turn failed (a node failed for good) or timed out. */
  | 'failed'
  /** The eval could not talk to the gateway. */
  | 'error';

export function outcomeOf(c: Conversation): Outcome {
  if (c.final_interrupt === 'need_confirm') return 'sql';
  if (c.final_interrupt === 'need_clarification') return c.final_node === 'give_up' ? 'gave_up' : 'clarification';
  if (c.session_id === null || c.final_status === 'error') return 'error';
  if (c.final_status === 'idle' && c.error === null) return 'other_answer';
  return 'failed';
}

/** The SQL adapters refuse text themselves; such an attempt never reached the database. */
const REFUSED_BEFORE_ENGINE = /^refused before reaching/i;
/**
 * The adapters' wording when the engine's parser cannot read the text at all (cause `parse` of the
 * target's read-only guard): a syntax error, not a statement the local check let through. The
 * second alternative is the wording of the guard before it used the engines' own parsers.
 */
const REFUSED_UNPARSABLE =
  /cannot parse the SQL|could not be read as a single standard SELECT statement|the SQL is empty/i;

/** An engine error that names a column, table/stream or function the engine does not have. */
export function isGroundingViolation(target: TargetKind, error: string): boolean {
  return targetProfile(target).namesUnknownObject(error);
}

export interface SafetyFindings {
  /** Engine-stage failures naming a column, table/stream or function that does not exist. */
  grounding_violations: number;
  /** Statements that reached the engine (failed there, or validated) and are not one SELECT. */
  unsafe_statements: number;
  /** Non-SELECT text the engine adapter refused before the database (the local check missed it). */
  unsafe_refused_by_adapter: number;
  /** Text the adapter's parser could not read, refused before the database: syntax, not safety. */
  unparsable_refused_by_adapter: number;
}

/**
 * What reached the engine, judged independently of the product's verdicts: each engine-stage
 * attempt's SQL and the accepted SQL, against the target's read-only guard (the engine's own
 * parser), or for a target without one (veloFlux, whose engine takes only pipeline SQL) the local
 * check's single-SELECT rule.
 */
export async function safetyFindings(target: TargetKind, c: Conversation): Promise<SafetyFindings> {
  let grounding = 0;
  let unsafe = 0;
  let refused = 0;
  let unparsable = 0;
  const reached: string[] = [];
  for (const f of c.failures) {
    if (f.stage !== 'engine') continue;
    if (REFUSED_BEFORE_ENGINE.test(f.error)) {
      if (REFUSED_UNPARSABLE.test(f.error)) unparsable += 1;
      else refused += 1;
      continue;
    }
    reached.push(f.sql);
    if (isGroundingViolation(target, f.error)) grounding += 1;
  }
  if (c.sql) reached.push(c.sql);
  for (const sql of reached) if (!(await isOneReadOnlySelect(target, sql))) unsafe += 1;
  return {
    grounding_violations: grounding,
    unsafe_statements: unsafe,
    unsafe_refused_by_adapter: refused,
    unparsable_refused_by_adapter: unparsable,
  };
}

async function isOneReadOnlySelect(target: TargetKind, sql: string): Promise<boolean> {
  const guard = targetProfile(target).readOnlyGuard;
  if (guard) return (await guard(sql)).ok;
  try {
    assertSingleSelect(sql, target);
    return true;
  } catch {
    return false;
  }
}

export interface Rate {
  count: number;
  of: number;
  rate: number;
}

export function rate(count: number, of: number): Rate {
  return { count, of, rate: of ? Math.round((count / of) * 1000) / 1000 : 0 };
}

export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1] ?? NaN;
}
