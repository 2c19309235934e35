import type { AggregateFn } from '@nl2p/query-plan';
import { wordScore } from '../match';
import { superlativeAt } from './superlatives';
import type { SchemaIndex } from '../schema-index';
import type { Token } from '../text';
import { norm, type LinkRule } from './rule';
import { wordTable } from '../word-table';

/** Single-word aggregate cues. Superlatives (`highest`) are aggregates or orderings: see superlatives.ts. */
const AGGREGATE_WORDS: Record<string, AggregateFn> = wordTable({
  average: 'avg',
  averages: 'avg',
  avg: 'avg',
  mean: 'avg',
  sum: 'sum',
  total: 'sum',
  totals: 'sum',
  count: 'count',
  maximum: 'max',
  max: 'max',
  peak: 'max',
  minimum: 'min',
  min: 'min',
});

/**
 * Aggregate and superlative cues: `how many`, `how much`, `number of`, `average`, `total`,
 * `highest`, `most recent`, unless the words name a column outright (`total_amount`). What each
 * applies to is found once the terms are known (aggregates).
 */
export const aggregateCues: LinkRule = {
  name: 'aggregate-cues',
  apply(s) {
    const { tokens } = s;
    for (let i = 0; i < tokens.length; i++) {
      if (s.taken.has(i)) continue;
      const w = norm(s, i);
      if (w === 'how' && (norm(s, i + 1) === 'many' || norm(s, i + 1) === 'much')) {
        s.aggregateCues.set(i, { fn: norm(s, i + 1) === 'many' ? 'count' : null, superlative: false, end: i + 2 });
        i++;
        continue;
      }
      if (w === 'number' && norm(s, i + 1) === 'of' && !startsColumnName(tokens, i, s.index)) {
        s.aggregateCues.set(i, { fn: 'count', superlative: false, end: i + 2 });
        i++;
        continue;
      }
      const sup = superlativeAt(tokens, i);
      if (sup) {
        s.aggregateCues.set(i, { fn: sup.fn, superlative: true, end: sup.end });
        i = sup.end - 1;
        continue;
      }
      const fn = AGGREGATE_WORDS[w];
      if (fn && !endsColumnName(tokens, i, s.index) && !startsColumnName(tokens, i, s.index)) {
        // "in total" after a count is only emphasis; kept as a weak sum cue the proposer may drop.
        s.aggregateCues.set(i, { fn, superlative: false, end: i + 1 });
      }
    }
  },
};

/**
 * The cue ends a column's two-word name (`grand total` → grand_total): not a cue. One that begins
 * a name (`total amount`) is startsColumnName's.
 */
function endsColumnName(tokens: readonly Token[], i: number, index: SchemaIndex): boolean {
  const [a, b] = [tokens[i - 1]?.norm ?? '', tokens[i]?.norm ?? ''];
  return index.tables.some((t) =>
    t.columns.some((c) =>
      c.readings.some(
        (r) => r.words.length === 2 && wordScore(a, r.words[0] ?? '') >= 0.9 && wordScore(b, r.words[1] ?? '') >= 0.9,
      ),
    ),
  );
}

/**
 * The cue begins a column's whole name said in order (`number of platforms` → Number_of_Platforms,
 * `average attendance` → Average_Attendance, `num of shops`): the data holds the figure already,
 * so the words name the column, not an aggregate of it. An `of` may be said or left out on
 * either side.
 */
function startsColumnName(tokens: readonly Token[], i: number, index: SchemaIndex): boolean {
  const said = tokens.slice(i, i + 6).map((t) => t.norm);
  return index.tables.some((t) =>
    t.columns.some((c) => c.readings.some((r) => r.words.length >= 2 && saysInOrder(said, r.words))),
  );
}

/** Every word of `name` met by the words said from the first on, `of` optional on both sides. */
function saysInOrder(said: readonly string[], name: readonly string[]): boolean {
  const words = name.filter((w) => w !== 'of');
  let at = 0;
  for (const w of words) {
    if (said[at] === 'of') at++;
    if (at >= said.length || wordScore(said[at] ?? '', w) < 0.9) return false;
    at++;
  }
  return true;
}
