import {
  compactSignature,
  foldOverloads,
  SYNTAX_FUNCTIONS,
  withSyntaxFunctions,
  type FunctionOverload,
} from './sql-functions';

const row = (name: string, params: string[], extra: Partial<FunctionOverload> = {}): FunctionOverload => ({
  name,
  kind: 'scalar',
  params,
  variadic: false,
  description: '',
  ...extra,
});

describe('compactSignature', () => {
  it('marks parameters beyond the shortest overload optional and variadics with ...', () => {
    expect(
      compactSignature('round', [
        { params: ['x'], variadic: false },
        { params: ['x', 'precision'], variadic: false },
      ]),
    ).toBe('round(x, [precision])');
    expect(compactSignature('concat_ws', [{ params: ['separator', 'string'], variadic: true }])).toBe(
      'concat_ws(separator, string...)',
    );
    expect(compactSignature('greatest', [{ params: [], variadic: true }])).toBe('greatest(values...)');
    expect(compactSignature('f', [{ params: ['col0', 'col1'], variadic: false }])).toBe('f(arg1, arg2)');
    expect(compactSignature('g', [{ params: ['col0'], variadic: false }])).toBe('g(x)');
    expect(compactSignature('pi', [])).toBe('pi()');
  });
});

describe('foldOverloads', () => {
  it('keeps wanted names, folds overloads and aliases into one entry each', () => {
    const functions = foldOverloads(
      [
        row('avg', ['x'], { kind: 'aggregate', description: 'Calculates the average. More text.' }),
        row('avg', ['x'], { kind: 'aggregate' }),
        row('mean', ['x'], { kind: 'aggregate', aliasOf: 'avg' }),
        // An alias of an operator or of an unwanted internal name keeps the name a query writes.
        row('abs', ['x'], { aliasOf: '@', description: 'Absolute value' }),
        row('now', [], { aliasOf: 'get_current_timestamp' }),
        row('row_number', [], { kind: 'aggregate' }),
        row('ignored', ['x']),
      ],
      ['avg', 'abs', 'now', 'row_number'],
    );
    expect(functions).toEqual([
      { name: 'abs', kind: 'scalar', aliases: [], signature: 'abs(x)', description: 'Absolute value', contexts: [] },
      {
        name: 'avg',
        kind: 'aggregate',
        aliases: ['mean'],
        signature: 'avg(x)',
        description: 'Calculates the average.',
        contexts: [],
      },
      { name: 'now', kind: 'scalar', aliases: [], signature: 'now()', description: '', contexts: [] },
      {
        name: 'row_number',
        kind: 'window',
        aliases: [],
        signature: 'row_number()',
        description: 'Number of the row within its window partition, from 1; needs OVER (...).',
        contexts: [],
      },
    ]);
  });

  it('describes a window function by its window overload, not a same-named aggregate', () => {
    const [rank] = foldOverloads(
      [
        row('rank', ['any'], { kind: 'aggregate', variadic: true, description: 'rank of hypothetical row' }),
        row('rank', [], { kind: 'window', description: 'integer rank with gaps' }),
      ],
      ['rank'],
    );
    expect(rank).toMatchObject({ kind: 'window', signature: 'rank()', description: 'integer rank with gaps' });
  });
});

describe('withSyntaxFunctions', () => {
  it('adds coalesce and friends only when the catalog lacks them', () => {
    const names = withSyntaxFunctions([
      { name: 'greatest', kind: 'scalar', aliases: [], signature: 'greatest(x...)', description: '', contexts: [] },
    ]).map((f) => f.name);
    expect(names).toEqual(['coalesce', 'greatest', 'least', 'nullif']);
    expect(SYNTAX_FUNCTIONS.map((f) => f.name)).toContain('coalesce');
  });
});
