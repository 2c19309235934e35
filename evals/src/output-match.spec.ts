import type { QueryOutput } from '@nl2p/engine';
import { resultSet, verdictOf } from './output-match';

const out = (rows: Record<string, unknown>[], over: Partial<QueryOutput> = {}): QueryOutput => ({
  sql: 'SELECT …',
  runtimeError: null,
  rowsIn: 16,
  rowsOut: rows.length,
  rows,
  ...over,
});

describe('output match on sample rows (the comparison)', () => {
  it('matches the same rows under other names and in another order, as a multiset', () => {
    const gold = out([
      { avg_temp: 20, device_id: 'd1' },
      { avg_temp: 50.0, device_id: 'd2' },
    ]);
    const pred = out([
      { avg_temperature: 50.004, device_id: 'd2' },
      { avg_temperature: 20, device_id: 'd1' },
    ]);
    expect(verdictOf(gold, pred, null)).toEqual({ match: true, detail: null });
  });

  it('fails on a different value, a missing row and a duplicate row', () => {
    const gold = out([
      { n: 2, device_id: 'd1' },
      { n: 1, device_id: 'd2' },
    ]);
    expect(
      verdictOf(
        gold,
        out([
          { n: 2, device_id: 'd1' },
          { n: 3, device_id: 'd2' },
        ]),
        null,
      ).match,
    ).toBe(false);
    expect(verdictOf(gold, out([{ n: 2, device_id: 'd1' }]), null)).toEqual({
      match: false,
      detail: 'row count 1, gold has 2',
    });
    const doubled = out([
      { n: 2, device_id: 'd1' },
      { n: 2, device_id: 'd1' },
    ]);
    expect(verdictOf(gold, doubled, null).match).toBe(false);
  });

  it('fails a candidate that failed on rows, with the engine’s words', () => {
    const pred = out([], {
      runtimeError: 'Type mismatch: expected Int64, Float64, or Uint8, got Bool(true) and Bool(false)',
    });
    expect(verdictOf(out([{ a: 1 }]), pred, null)).toEqual({
      match: false,
      detail: 'failed on sample rows: Type mismatch: expected Int64, Float64, or Uint8, got Bool(true) and Bool(false)',
    });
  });

  it('fails output where the reference emitted none, and does not count two empty outputs as a match', () => {
    expect(verdictOf(out([]), out([{ a: 1 }]), null)).toEqual({
      match: false,
      detail: 'emitted 1 row(s) where the reference emitted none',
    });
    expect(verdictOf(out([]), out([]), null)).toEqual({
      match: null,
      detail: 'not measured: the reference emitted nothing on the sample rows (an empty match says nothing)',
    });
  });

  it('says "not measured" when the engine counted rows out that its sink never published (the fake runtime)', () => {
    const counted = out([], { rowsOut: 4 });
    expect(verdictOf(counted, out([], { rowsOut: 4 }), null)).toEqual({
      match: null,
      detail:
        'not measured: the engine counted 4 row(s) out but its sink published none (a runtime that computes no values)',
    });
  });

  it('says "not measured" when a window flush could not be awaited, or the reference itself failed', () => {
    expect(verdictOf(out([]), out([]), 'a 60 s tumbling window').detail).toBe(
      'not measured: a 60 s tumbling window could not be waited for within the time limit',
    );
    expect(verdictOf(out([], { runtimeError: 'boom' }), out([{ a: 1 }]), null)).toEqual({
      match: null,
      detail: 'not measured: the reference failed on sample rows: boom',
    });
  });

  it('reads rows with missing keys as nulls under the union of the keys', () => {
    expect(resultSet([{ b: 1, a: 2 }, { a: 3 }])).toEqual({
      columns: ['a', 'b'],
      rows: [
        [2, 1],
        [3, null],
      ],
    });
  });
});
