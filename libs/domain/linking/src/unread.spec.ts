import { linkRequest } from './link';
import { proposePlan } from './propose';
import { demoSchema } from './testing/fixtures';

const demo = demoSchema();
const unread = (request: string) => linkRequest(request, demo).unread.map((u) => u.text);

/** Each row: a request, and the answer-changing words in it that no link took. */
const CORPUS: [string, string[]][] = [
  ['the ratio of quantity to unit price for each order', ['ratio']],
  ['number of orders placed on weekends', ['weekends']],
  ['orders with a quantity that is the same as the previous order', ['same', 'previous']],
  ['names of customers sorted by country in descending order', []],
  ['average humidity over all readings', []],
  ['average temperature per hour, with the start of each hour', []],
  ['orders that are not cancelled', []],
];

describe('words that change the answer are read or reported', () => {
  it.each(CORPUS)('%s → unread %j', (request, expected) => {
    expect(unread(request)).toEqual(expected);
  });

  it('a plan that leaves one unread is not conclusive, and says which', () => {
    const p = proposePlan(linkRequest('number of orders placed on weekends', demo), demo);
    expect(p.confidence).toBe('partial');
    expect(p.doubts).toContain('"weekends" was not understood');
  });
});
