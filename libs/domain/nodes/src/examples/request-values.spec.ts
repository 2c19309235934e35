import fc from 'fast-check';
import { requestTokens, valueDiff, type SameColumnValue } from './request-values';

const noDataValues: SameColumnValue = () => null;
/** The demo data's device ids and countries, as a catalog's values would say them. */
const COLUMNS = [
  ['dev-01', 'dev-02', 'dev-03'],
  ['France', 'Germany', 'Spain'],
];
const demoValues: SameColumnValue = (from, to) => {
  const col = COLUMNS.find((c) => [from, to].every((w) => c.some((v) => v.toLowerCase() === w.toLowerCase())));
  return col?.find((v) => v.toLowerCase() === to.toLowerCase()) ?? null;
};

describe('the tokens of a request', () => {
  it('tells numbers, quoted texts, dates and words apart, skipping punctuation', () => {
    expect(requestTokens(`orders of 'Alice Smith' since 2024-03-01, above 30.5 per 10s; dev-01?`)).toEqual([
      { kind: 'word', text: 'orders' },
      { kind: 'word', text: 'of' },
      { kind: 'quoted', text: 'Alice Smith' },
      { kind: 'word', text: 'since' },
      { kind: 'date', text: '2024-03-01' },
      { kind: 'word', text: 'above' },
      { kind: 'number', text: '30.5' },
      { kind: 'word', text: 'per' },
      { kind: 'number', text: '10' },
      { kind: 'word', text: 's' },
      { kind: 'word', text: 'dev-01' },
    ]);
  });

  it('keeps a word with digits in it a word', () => {
    expect(requestTokens('sensor2 and 3rd x5').map((t) => t.kind)).toEqual(['word', 'word', 'number', 'word', 'word']);
  });
});

describe('how two requests differ in values', () => {
  it.each([
    ['average temperature per device above 30', 'average temperature per device above 25', [['30', '25']]],
    ["orders with status 'shipped'", "orders with status 'pending'", [['shipped', 'pending']]],
    ['orders since 2024-03-01', 'orders since 2025-01-31', [['2024-03-01', '2025-01-31']]],
    ['readings per 5 minutes', 'readings per 15 minutes', [['5', '15']]],
    [
      'readings of dev-01 above 30',
      'readings of DEV-03 above 31',
      [
        ['dev-01', 'dev-03'],
        ['30', '31'],
      ],
    ],
    ['orders from France', 'orders from germany', [['France', 'Germany']]],
  ])('%s → %s', (earlier, now, changes) => {
    const diff = valueDiff(earlier, now, demoValues);
    expect(diff).toEqual({ ok: true, changes: changes.map(([from, to]) => expect.objectContaining({ from, to })) });
  });

  it.each([
    ['average temperature per device above 30', 'average humidity per device above 30'], // a column word
    ['average temperature per device above 30', 'average temperature per device above 30 today'], // a word more
    ['orders from France', 'orders from Atlantis'], // not a value of the data
    ['readings per 5 minutes', 'readings per 5 hours'], // a duration's unit is not a value
    ['top 5 devices with more than 5 readings', 'top 3 devices with more than 5 readings'], // which 5?
    ['devices above 30 or below 20', 'devices above 20 or below 20'], // two values become one
    ["orders with status 'shipped'", 'orders with status 5'], // another kind of value
  ])('%s and %s are different questions', (earlier, now) => {
    expect(valueDiff(earlier, now, demoValues).ok).toBe(false);
  });

  // Property-style: requests made of words and number slots.
  const word = fc.constantFrom('average', 'temperature', 'per', 'device', 'above', 'orders', 'count', 'of', 'top');
  const number = fc.integer({ min: -1000, max: 1000 });
  const template = fc.array(fc.oneof(word, fc.constant('#')), { minLength: 1, maxLength: 10 });
  const fill = (t: string[], values: number[]) => {
    let i = 0;
    return t.map((w) => (w === '#' ? String(values[i++ % values.length]) : w)).join(' ');
  };

  it('finds no change between a request and itself', () => {
    fc.assert(
      fc.property(template, fc.array(number, { minLength: 1, maxLength: 3 }), (t, values) => {
        const text = fill(t, values);
        expect(valueDiff(text, text, noDataValues)).toEqual({ ok: true, changes: [] });
      }),
    );
  });

  it('finds exactly the number that changed, in a request with one number', () => {
    fc.assert(
      fc.property(template, number, number, (t, a, b) => {
        fc.pre(t.includes('#') && a !== b);
        const one = t.filter((w, i) => w !== '#' || t.indexOf('#') === i);
        const diff = valueDiff(fill(one, [a]), fill(one, [b]), noDataValues);
        expect(diff).toEqual({ ok: true, changes: [{ kind: 'number', from: String(a), to: String(b) }] });
      }),
    );
  });

  it('never calls two requests the same question when a word differs', () => {
    fc.assert(
      fc.property(template, word, fc.nat(), number, (t, other, at, value) => {
        const i = at % t.length;
        fc.pre(t[i] !== '#' && t[i] !== other);
        const changed = t.map((w, j) => (j === i ? other : w));
        expect(valueDiff(fill(t, [value]), fill(changed, [value]), noDataValues).ok).toBe(false);
      }),
    );
  });

  it('never calls two requests of different lengths the same question', () => {
    fc.assert(
      fc.property(template, word, number, (t, extra, value) => {
        expect(valueDiff(fill(t, [value]), `${fill(t, [value])} ${extra}`, noDataValues).ok).toBe(false);
      }),
    );
  });

  it('is symmetric: the same question either way round (values that repeat included)', () => {
    const few = fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(template, few, few, (t, a, b) => {
        expect(valueDiff(fill(t, a), fill(t, b), noDataValues).ok).toBe(
          valueDiff(fill(t, b), fill(t, a), noDataValues).ok,
        );
      }),
    );
  });
});
