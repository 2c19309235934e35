import { formatCell, rowCount, sinceWhen } from './format';

describe('formatCell', () => {
  it.each([
    [21.059979166666707, '21.06'],
    [-3.14159, '-3.14'],
    [1234567.891, '1234567.89'],
    [0.000123456, '0.000123'],
    [0.5, '0.5'],
    [42, '42'],
    [1e21, '1e+21'],
    ['sensor-1', 'sensor-1'],
    ['21.059979166666707', '21.059979166666707'],
    [true, 'true'],
  ])('%p → %s', (cell, shown) => {
    expect(formatCell(cell)).toBe(shown);
  });
});

describe('rowCount', () => {
  it('counts rows, and says when there are more', () => {
    expect(rowCount(1, false)).toBe('1 row');
    expect(rowCount(12, false)).toBe('12 rows');
    expect(rowCount(20, true)).toBe('the first 20 rows');
  });
});

describe('sinceWhen', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  it.each([
    ['2026-11-26T11:59:30Z', 'just now'],
    ['2026-11-26T11:55:00Z', '5 min ago'],
    ['2026-11-26T09:00:00Z', '3 h ago'],
    ['2026-11-20T09:00:00Z', '2026-11-20'],
  ])('%s → %s', (iso, said) => {
    expect(sinceWhen(iso, now)).toBe(said);
  });
});
