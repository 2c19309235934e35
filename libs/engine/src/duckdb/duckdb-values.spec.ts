import { duckDbColumn } from './duckdb-values';

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
