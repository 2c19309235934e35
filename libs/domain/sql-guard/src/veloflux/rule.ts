import type { Findings } from '../findings';
import type { VelofluxQuery } from './query';

/**
 * One veloFlux rule: a construct StreamDialect parses but the planner (or the running pipeline)
 * does not handle as written, or a name the engine does not have. It reads the analysed query and
 * reports what is wrong and what to write instead, because the message is fed back to the model
 * and shown to people. Rules never change the query or each other's findings.
 */
export interface VelofluxRule {
  /** The rule's file name: what it checks. */
  readonly id: string;
  check(q: VelofluxQuery, out: Findings): void;
}
