import type { AggregateFn } from '@nl2p/query-plan';
import { wordScore } from '../match';
import { superlativeAt } from './superlatives';
import type { SchemaIndex } from '../schema-index';
import type { Token } from '../text';
import { norm, type LinkRule, type LinkState } from './rule';
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
 * Aggregate and superlative cues: `how many`, `how much`, `number of`, `total number of`, `average`, `total`,
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
      const counted = totalCount(s, i);
      if (counted) {
        // A column's name said whole (`total number of horses`: Total_Horses) is no cue at all.
        if (counted.count) s.aggregateCues.set(i, { fn: 'count', superlative: false, end: counted.end });
        i = counted.end - 1;
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
 * `total number of X`, `the total count of X`: one count, which `total` only stresses (a sum of
 * what is counted would add the rows' keys): a count cue to the end of `of`. When a column says
 * it, no count: `total number of citations` beside `number_of_citations` (or `total_citations`),
 * or `total count` beside a column `count`, is the sum of that column (null: `total` is read as a
 * sum, as any `total`).
 */
function totalCount(s: LinkState, i: number): { end: number; count: boolean } | null {
  if (norm(s, i) !== 'total' || norm(s, i + 2) !== 'of') return null;
  const next = norm(s, i + 1);
  if (next !== 'number' && next !== 'count') return null;
  // `total number of horses` may say a column `Total_Horses`: the words with `number of` left out.
  const withoutCount = [s.tokens[i], ...s.tokens.slice(i + 3)].filter((t): t is Token => t !== undefined);
  const summed =
    startsColumnName(withoutCount, 0, s.index) ||
    startsColumnName(s.tokens, i + 1, s.index) ||
    countedColumn(s, i + 3) ||
    // A column named `count` holds counts to add up; one named `number` is a code (a course number).
    (next === 'count' && isColumnName(next, s.index));
  return summed ? null : { end: i + 3, count: true };
}

/** The parts of a column's name that say it holds a count (`num_enrolled`, `Total_Horses`, `no_of_customers`). */
const COUNT_PARTS = new Set(['num', 'number', 'no', 'nr', 'count', 'cnt', 'total', 'tot', 'of']);

/**
 * `total number of students enrolled` beside `num_enrolled`: a column holding a count of what is
 * said after `of` (its other words all said in the next few words) is the figure to add up.
 */
function countedColumn(s: LinkState, from: number): boolean {
  const said: string[] = [];
  for (let k = from; k < from + 4 && s.tokens[k]?.kind === 'word'; k++) said.push(norm(s, k));
  return s.index.tables.some((t) =>
    t.columns.some(
      (c) =>
        c.numeric &&
        c.readings.some((r) => {
          const counts = r.words.filter((w) => COUNT_PARTS.has(w));
          const rest = r.words.filter((w) => !COUNT_PARTS.has(w));
          return counts.length > 0 && rest.length > 0 && rest.every((w) => said.some((x) => wordScore(x, w) >= 0.9));
        }),
    ),
  );
}

/** A column is named by the word alone (`count` in a table of check-in counts). */
function isColumnName(word: string, index: SchemaIndex): boolean {
  return index.tables.some((t) =>
    t.columns.some((c) => c.readings.some((r) => r.words.length === 1 && r.words[0] === word)),
  );
}

/**
 * The cue ends a column's two-word name (`grand total` → grand_total): not a cue. One that begins
 * a name (`total amount`) is startsColumnName's.
 */
export function endsColumnName(tokens: readonly Token[], i: number, index: SchemaIndex): boolean {
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
export function startsColumnName(tokens: readonly Token[], i: number, index: SchemaIndex): boolean {
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
