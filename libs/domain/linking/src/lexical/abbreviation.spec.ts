import { abbreviationScore } from './abbreviation';
import { relationBetween } from './related';

const ABBREVIATIONS: [string, string][] = [
  ['cust', 'customer'],
  ['qty', 'quantity'],
  ['amt', 'amount'],
  ['dept', 'department'],
  ['addr', 'address'],
  ['num', 'number'],
  ['cnt', 'count'],
  ['dist', 'distance'],
  ['emp', 'employee'],
];
const NOT: [string, string][] = [
  ['cat', 'contact'],
  ['id', 'identifier'],
  ['age', 'agent'],
  ['car', 'card'],
  ['name', 'number'],
  ['price', 'price'],
];

/** Short forms that are words of their own: weaker, or WordNet's own synonyms (`pct` is listed as percent). */
const WORDLIKE: [string, string][] = [
  ['auto', 'automatic'],
  ['pct', 'percent'],
  ['temp', 'temperature'],
];

describe('abbreviationScore', () => {
  it.each(WORDLIKE)('%s stands for %s, weakly or as WordNet says', (s, l) =>
    expect(abbreviationScore(s, l) > 0 || relationBetween([s], [l]) === 'synonym').toBe(true),
  );
  it.each(ABBREVIATIONS)('%s abbreviates %s', (s, l) => expect(abbreviationScore(s, l)).toBeGreaterThanOrEqual(0.75));
  it.each(NOT)('%s does not abbreviate %s', (s, l) => expect(abbreviationScore(s, l)).toBe(0));
});
