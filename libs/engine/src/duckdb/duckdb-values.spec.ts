import { bigintToJson, duckDbColumn, jsonSafe } from './duckdb-values';

describe('duckDbColumn', () => {
  it.each([
    ['TIMESTAMP', { name: 'c', data_type: 'timestamp' }],
    ['DECIMAL(10,2)', { name: 'c', data_type: 'decimal(10,2)' }],
    ['TIMESTAMP WITH TIME ZONE', { name: 'c', data_type: 'timestamp with time zone' }],
    ["ENUM('On', 'Off')", { name: 'c', data_type: "enum('On', 'Off')" }],
    ['MAP(VARCHAR, INTEGER)', { name: 'c', data_type: 'map(varchar, integer)' }],
    ['DOUBLE[]', { name: 'c', data_type: 'list', element: { name: 'element', data_type: 'double' } }],
    [
      'INTEGER[][3]',
      {
        name: 'c',
        data_type: 'list',
        element: { name: 'element', data_type: 'list', element: { name: 'element', data_type: 'integer' } },
      },
    ],
    [
      'STRUCT(a INTEGER, "b ""c""" VARCHAR[], d STRUCT(e DECIMAL(4,1), f MAP(VARCHAR, INTEGER)))',
      {
        name: 'c',
        data_type: 'struct',
        fields: [
          { name: 'a', data_type: 'integer' },
          { name: 'b "c"', data_type: 'list', element: { name: 'element', data_type: 'varchar' } },
          {
            name: 'd',
            data_type: 'struct',
            fields: [
              { name: 'e', data_type: 'decimal(4,1)' },
              { name: 'f', data_type: 'map(varchar, integer)' },
            ],
          },
        ],
      },
    ],
    [
      'STRUCT(x DOUBLE)[]',
      {
        name: 'c',
        data_type: 'list',
        element: { name: 'element', data_type: 'struct', fields: [{ name: 'x', data_type: 'double' }] },
      },
    ],
  ])('maps %s', (type, column) => {
    expect(duckDbColumn('c', type)).toEqual(column);
  });
});

describe('jsonSafe', () => {
  it('turns BigInt, dates, bytes and non-finite numbers into JSON values, recursively', () => {
    expect(
      jsonSafe({
        small: 42n,
        big: 2n ** 60n,
        when: new Date(Date.UTC(2024, 2, 1, 12)),
        bad: new Date(NaN),
        bytes: Uint8Array.from([0xab, 0x01]),
        nan: NaN,
        list: [1n, Infinity, null, undefined],
      }),
    ).toEqual({
      small: 42,
      big: '1152921504606846976',
      when: '2024-03-01T12:00:00.000Z',
      bad: null,
      bytes: '\\xab01',
      nan: 'NaN',
      list: [1, 'Infinity', null, null],
    });
  });

  it('keeps integers exact: numbers within 2^53, strings beyond', () => {
    expect(bigintToJson(9007199254740991n)).toBe(9007199254740991);
    expect(bigintToJson(9007199254740992n)).toBe('9007199254740992');
    expect(bigintToJson(-9007199254740992n)).toBe('-9007199254740992');
  });
});
