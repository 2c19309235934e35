import { endsColumnName, startsColumnName } from './aggregate-cues';
import { norm, range, take, type LinkRule } from './rule';
import { wordTable } from '../word-table';

/** `ratio of`, `percentage of`: the cue of a figure dividing two parts of the data, before its sides are known (ratios). */
export interface FoundRatioCue {
  start: number;
  /** The token after the cue (`of`, `between` included). */
  end: number;
  /** 100 for a percentage, 1 otherwise. */
  scale: 1 | 100;
  /** `ratio between A and B`: the sides are joined by `and`, not `to`. */
  between: boolean;
  /** A share (`percentage of orders that were returned`): the whole may go unsaid, the numerator's head is it. */
  share: boolean;
  /** `-` for `the difference between A and B`. */
  op: '/' | '-';
}

const RATIO_WORDS = new Set(['ratio', 'ratios']);
/** `the difference between A and B`: the same two sides, subtracted. */
const DIFFERENCE_WORDS = new Set(['difference', 'gap']);
const SHARE_WORDS = wordTable<1 | 100>({
  proportion: 1,
  proportions: 1,
  fraction: 1,
  share: 1,
  percentage: 100,
  percent: 100,
});

/**
 * The cues of ratios and shares: `the ratio of`, `the ratio between`, `what percentage of`, `the
 * proportion of`, `the share of`; and of differences, whose two sides are read alike and
 * subtracted: `the difference between`. Owned here so no term reads them (`ratio` is no loose synonym of
 * a column); the sides are found once the terms are known (ratios). A cue that begins or ends a
 * column's name (`share of votes` beside `share_of_votes`, `market share` beside `market_share`)
 * names the column.
 */
export const ratioCues: LinkRule = {
  name: 'ratio-cues',
  apply(s) {
    for (let i = 0; i < s.tokens.length; i++) {
      const w = norm(s, i);
      const difference = DIFFERENCE_WORDS.has(w);
      const ratio = RATIO_WORDS.has(w) || difference;
      const scale = SHARE_WORDS[w];
      if ((!ratio && !scale) || s.taken.has(i) || s.taken.has(i + 1)) continue;
      const between = ratio && norm(s, i + 1) === 'between';
      // A difference is said between its two sides only (`the difference of …` is not read).
      if ((norm(s, i + 1) !== 'of' || difference) && !between) continue;
      // `share of votes` beside `share_of_votes`, `market share of Safari` beside `market_share`: the column.
      if (startsColumnName(s.tokens, i, s.index) || endsColumnName(s.tokens, i, s.index)) continue;
      s.ratioCues.push({ start: i, end: i + 2, scale: scale ?? 1, between, share: !ratio, op: difference ? '-' : '/' });
      take(s, range(i, i + 2));
    }
  },
};
