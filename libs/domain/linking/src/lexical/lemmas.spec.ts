import { lemmaOf } from './lemmas';

const LEMMAS: [string, string][] = [
  ['shipped', 'ship'],
  ['purchases', 'purchase'],
  ['heavier', 'heavy'],
  ['cities', 'city'],
  ['bought', 'buy'],
  ['oldest', 'old'],
  ['customer', 'customer'],
];

describe('lemmaOf', () => {
  it.each(LEMMAS)('%s → %s', (w, l) => expect(lemmaOf(w)).toBe(l));
  it('leaves short words, numbers and non-words alone', () => {
    expect(lemmaOf('ts')).toBe('ts');
    expect(lemmaOf('2019')).toBe('2019');
  });
});
