import { createHash } from 'node:crypto';

/** The share of items held out, in percent. */
export const HELD_OUT_PERCENT = 30;

/**
 * Whether an item is held out: the first 8 hex digits of sha1(`db_name + '\n' + question`) as a
 * number, mod 100, below {@link HELD_OUT_PERCENT}. Stable across runs, machines and file order, and
 * the same question over the same database always lands on the same side.
 */
export function isHeldOut(dbName: string, question: string): boolean {
  const hex = createHash('sha1').update(`${dbName}\n${question}`, 'utf8').digest('hex').slice(0, 8);
  return parseInt(hex, 16) % 100 < HELD_OUT_PERCENT;
}
