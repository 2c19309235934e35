// Time phrases end to end: the time parsers here, and the readings that turn them into ranges, buckets and windows.
import { linkRequest } from '../../link';
import { proposePlan } from '../../propose';
import { demoSchema, streamSchema, taxiSchema } from '../../testing/fixtures';
import type { LinkSchema } from '../../types';

const demo = demoSchema();
const taxi = taxiSchema();
const stream = streamSchema();
const now = new Date(Date.UTC(2024, 5, 15, 10, 30));

const ranges = (text: string, schema: LinkSchema) =>
  linkRequest(text, schema, { now }).timeRanges.map((r) => [r.from, r.to]);
const groups = (text: string, schema: LinkSchema) =>
  linkRequest(text, schema, { now }).timeGroups.map((g) => ({
    unit: g.unit,
    size: g.size,
    window: g.window,
    asDate: g.asDate,
  }));

describe('time ranges', () => {
  it.each([
    ['orders placed in February 2024', demo, [['2024-02-01 00:00:00', '2024-03-01 00:00:00']]],
    ['readings from the first week of February 2024', demo, [['2024-02-01 00:00:00', '2024-02-08 00:00:00']]],
    ['orders in the second week of March 2024', demo, [['2024-03-08 00:00:00', '2024-03-15 00:00:00']]],
    // A leap February: its last seven days are the 23rd to the 29th.
    ['readings in the last week of February 2024', demo, [['2024-02-23 00:00:00', '2024-03-01 00:00:00']]],
    ['trips in March 2024', taxi, [['2024-03-01 00:00:00', '2024-04-01 00:00:00']]],
    ['readings on 1 March 2024 between 12:00 and 18:00', demo, [['2024-03-01 12:00:00', '2024-03-01 18:00:00']]],
    ['readings between 10:00 and 14:00 on 2 March 2024', demo, [['2024-03-02 10:00:00', '2024-03-02 14:00:00']]],
    ['trips on 2024-03-05', taxi, [['2024-03-05 00:00:00', '2024-03-06 00:00:00']]],
    ['trips in 2023', taxi, [['2023-01-01 00:00:00', '2024-01-01 00:00:00']]],
    ['trips in Q2 2024', taxi, [['2024-04-01 00:00:00', '2024-07-01 00:00:00']]],
    ['orders in the last 7 days', demo, [['2024-06-08 00:00:00', null]]],
    ['orders since March 2024', demo, [['2024-03-01 00:00:00', null]]],
    ['trips last month', taxi, [['2024-05-01 00:00:00', '2024-06-01 00:00:00']]],
  ] as const)('%s', (text, schema, expected) => {
    expect(ranges(text, schema)).toEqual(expected);
  });

  it('does not read a weekday remark or the verb "may" as a range', () => {
    expect(ranges('orders per week (weeks start on Monday)', demo)).toEqual([]);
    expect(ranges('which trips may be missing a fare', taxi)).toEqual([]);
  });

  it('filters the time column the range is about', () => {
    const plan = proposePlan(linkRequest('ids of books orders placed in February 2024', demo, { now }), demo).plan;
    expect(plan?.where).toMatchObject({
      kind: 'and',
      conditions: expect.arrayContaining([
        {
          kind: 'compare',
          left: { kind: 'column', ref: { column: 'ordered_at' } },
          op: '>=',
          value: { kind: 'timestamp', value: '2024-02-01 00:00:00' },
        },
        {
          kind: 'compare',
          left: { kind: 'column', ref: { column: 'ordered_at' } },
          op: '<',
          value: { kind: 'timestamp', value: '2024-03-01 00:00:00' },
        },
      ]),
    });
  });
});

describe('time buckets (SQL targets)', () => {
  it.each([
    ['orders per hour', demo, { unit: 'hour', size: 1, window: null, asDate: false }],
    ['daily revenue', demo, { unit: 'day', size: 1, window: null, asDate: false }],
    ['trips per day, the day as a date', taxi, { unit: 'day', size: 1, window: null, asDate: true }],
    ['weekly fares', taxi, { unit: 'week', size: 1, window: null, asDate: false }],
    ['monthly orders', demo, { unit: 'month', size: 1, window: null, asDate: false }],
    ['temperature in 10-minute buckets', demo, { unit: 'minute', size: 10, window: null, asDate: false }],
    ['average fare per 15 minutes', taxi, { unit: 'minute', size: 15, window: null, asDate: false }],
    ['readings every 30 seconds', demo, { unit: 'second', size: 30, window: null, asDate: false }],
  ] as const)('%s', (text, schema, expected) => {
    expect(groups(text, schema)).toEqual([expected]);
  });

  it('buckets the time column and selects the bucket start', () => {
    const plan = proposePlan(
      linkRequest('Average temperature per hour, with the start of each hour', demo, { now }),
      demo,
    ).plan;
    expect(plan?.time_bucket).toEqual({ column: { column: 'ts' }, unit: 'hour', size: 1, as_date: false });
    expect(plan?.select?.[0]).toEqual({ kind: 'bucket', alias: null });
  });
});

describe('windows (veloFlux)', () => {
  it.each([
    ['average temperature every 10 seconds', { kind: 'tumbling', unit: 'second', size: 10 }],
    ['average speed over 30-second windows', { kind: 'tumbling', unit: 'second', size: 30 }],
    ['max speed per minute', { kind: 'tumbling', unit: 'minute', size: 1 }],
    [
      'max humidity over a sliding window of the last 30 seconds',
      { kind: 'sliding', unit: 'second', size: 30, lookahead: 0 },
    ],
    ['average speed in a 5-minute rolling window', { kind: 'sliding', unit: 'minute', size: 5, lookahead: 0 }],
    ['count the readings per device in windows of 100 readings', { kind: 'count', size: 100 }],
  ] as const)('%s', (text, window) => {
    expect(proposePlan(linkRequest(text, stream), stream).plan?.window).toEqual(window);
  });
});
