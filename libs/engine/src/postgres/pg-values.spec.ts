import { isoFromPgTimestamp, previewTypes } from './pg-values';

describe('isoFromPgTimestamp', () => {
  it.each([
    ['2024-03-01 12:00:00', '2024-03-01T12:00:00.000Z'],
    ['2024-03-01 12:00:00.123456', '2024-03-01T12:00:00.123Z'],
    ['2024-03-01 12:00:00.5', '2024-03-01T12:00:00.500Z'],
    ['2024-03-01 12:00:00+00', '2024-03-01T12:00:00.000Z'],
    ['2024-03-01 12:00:00+05:30', '2024-03-01T06:30:00.000Z'],
    ['2024-03-01 00:30:00-02', '2024-03-01T02:30:00.000Z'],
    ['infinity', 'infinity'],
    ['0044-03-15 12:00:00 BC', '0044-03-15 12:00:00 BC'],
    ['0999-01-01 00:00:00', '0999-01-01 00:00:00'],
  ])('%s → %s', (text, iso) => {
    expect(isoFromPgTimestamp(text)).toBe(iso);
  });
});

describe('previewTypes', () => {
  const parse = (oid: number, text: string): unknown =>
    (previewTypes.getTypeParser(oid, 'text') as (t: string) => unknown)(text);

  it('parses like the DuckDB target shows values', () => {
    expect(parse(20, '42')).toBe(42);
    expect(parse(20, '9007199254740993')).toBe('9007199254740993');
    expect(parse(1700, '9.99')).toBe(9.99);
    expect(parse(1700, 'NaN')).toBe('NaN');
    expect(parse(701, 'Infinity')).toBe('Infinity');
    expect(parse(1114, '2024-01-05 10:20:00')).toBe('2024-01-05T10:20:00.000Z');
    expect(parse(1082, '2024-01-05')).toBe('2024-01-05');
    expect(parse(1186, '01:30:00')).toBe('01:30:00');
    // Everything else keeps pg's own parser.
    expect(parse(23, '7')).toBe(7);
    expect(parse(16, 't')).toBe(true);
  });
});
