import { classifyEngineError } from './classify';

describe('classifyEngineError', () => {
  // Bodies copied from manager-api/CONTRACT.md §8 and examples/error_examples.json.
  const cases: [string, ReturnType<typeof classifyEngineError>][] = [
    [
      'parse pipeline tmp_1 sql: Parse error: sql parser error: Expected an SQL statement, found: SELEC at Line: 1, Column 1',
      'syntax',
    ],
    [
      'parse pipeline tmp_1 sql: Dialect processing error: sql parser error: unsupported time unit `mm` (only `ss` allowed)',
      'syntax',
    ],
    ['stream nosuch_stream missing from storage', 'unknown_stream'],
    ['failed to create pipeline p: pipeline build error: stream s not found in catalog', 'unknown_stream'],
    [
      "failed to create pipeline tmp_1: pipeline build error: Failed to compile expression: Column not found: No schema bindings available for identifier 'missing_col",
      'unknown_column',
    ],
    [
      'failed to create pipeline tmp_1: pipeline build error: Failed to compile expression: Column not found: sensor_stream.missing_col',
      'unknown_column',
    ],
    [
      'failed to create pipeline tmp_1: pipeline build error: field `alt` not found in struct (available: lat, lon)',
      'unknown_column',
    ],
    [
      'failed to create pipeline tmp_1: pipeline build error: Failed to compile expression: Unsupported expression: Unknown function: \'foo\'. Available custom functions: ["abs"]',
      'unknown_function',
    ],
    [
      "failed to create pipeline tmp_1: pipeline build error: SELECT expression 'device_id' must be an aggregate or appear in GROUP BY",
      'semantic',
    ],
    [
      'failed to create pipeline tmp_1: pipeline build error: Failed to convert filter predicate to scalar expression: Unsupported expression: Struct field access right side must be an identifier',
      'semantic',
    ],
    ['failed to create pipeline tmp_1: pipeline build error: HAVING requires GROUP BY window', 'semantic'],
    ['mqtt sink requires broker_url', 'other'],
    ['pipeline must define at least one sink', 'other'],
    ['', 'other'],
  ];

  it.each(cases)('%s → %s', (body, kind) => {
    expect(classifyEngineError(body)).toBe(kind);
  });
});
