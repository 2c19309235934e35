import { relationBetween } from './related';

/** Each row: a request word, a schema word, the relation WordNet gives them (null: none). */
const CORPUS: [string, string, ReturnType<typeof relationBetween>][] = [
  ['pupil', 'student', 'synonym'],
  ['nation', 'country', 'synonym'],
  ['cost', 'price', 'synonym'],
  ['heavy', 'weight', 'attribute'],
  ['old', 'age', 'attribute'],
  ['hot', 'temperature', 'attribute'],
  ['fast', 'speed', 'attribute'],
  ['automatic', 'automate', 'derived'],
  ['buy', 'purchase', 'synonym'],
  ['car', 'automobile', 'synonym'],
  ['sedan', 'car', 'broader'],
  ['car', 'sedan', 'narrower'],
  ['temperature', 'customer', null],
  ['city', 'price', null],
];

describe('relationBetween (WordNet)', () => {
  it.each(CORPUS)('%s ~ %s: %s', (a, b, expected) => {
    expect(relationBetween([a], [b])).toBe(expected);
  });

  // Said in the plural a word is a noun: `name` may cite (a verb), `names` do not.
  it.each([
    [['name'], 'cite', 'synonym'],
    [['names', 'name'], 'cite', null],
    [['nations', 'nation'], 'country', 'synonym'],
    [['pupils', 'pupil'], 'student', 'synonym'],
  ] as const)('%j ~ %s: %s', (a, b, expected) => {
    expect(relationBetween(a, [b])).toBe(expected);
  });
});
