import { mixedRows } from './sample-outputs';

describe('mixedRows (the output match feed)', () => {
  it('gives each group key every value of the other columns, so avg, min and max of a group differ', () => {
    const covering = [
      { device_id: 'a', temperature: 1.5 },
      { device_id: 'b', temperature: 2.5 },
    ];
    const rows = mixedRows(covering, 64);
    expect(rows).toEqual([
      { device_id: 'a', temperature: 1.5 },
      { device_id: 'b', temperature: 1.5 },
      { device_id: 'a', temperature: 2.5 },
      { device_id: 'b', temperature: 2.5 },
    ]);
  });

  it('thins the combinations to the cap, keeping struct values whole', () => {
    const covering = Array.from({ length: 5 }, (_, i) => ({ a: i, b: `s${i}`, c: i % 2 === 0, loc: { lat: i } }));
    const rows = mixedRows(covering, 10);
    expect(rows).toHaveLength(10);
    expect(new Set(rows.map((r) => JSON.stringify(r))).size).toBe(10);
    for (const key of ['a', 'b', 'c', 'loc'] as const) {
      expect(new Set(rows.map((r) => JSON.stringify(r[key]))).size).toBeGreaterThan(1);
    }
    expect(rows.every((r) => JSON.stringify(r.loc).startsWith('{"lat":'))).toBe(true);
  });
});
