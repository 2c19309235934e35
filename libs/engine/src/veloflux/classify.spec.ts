import { classifyEngineError } from './classify';

describe('classifyEngineError', () => {
  // Bodies copied from manager-api/CONTRACT.md §8, examples/error_examples.json and the recorded
  // exchanges.
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
    // Recorded answers of a real Manager (shared/manager-api/recorded/exchanges.jsonl).
    ['parse pipeline p sql: Parse error: sql parser error: Expected AS, found: , at Line: 1, Column 17', 'syntax'],
    ['parse pipeline p sql: NULLS FIRST/LAST in ORDER BY is not supported yet', 'syntax'],
    [
      'parse pipeline p sql: Dialect processing error: sql parser error: tumblingwindow does not support OVER',
      'syntax',
    ],
    ['stream "sensor_readings" missing from storage', 'unknown_stream'],
    [
      'failed to create pipeline p: pipeline build error: Failed to compile expression: Column not found: location',
      'unknown_column',
    ],
    [
      'failed to create pipeline p: pipeline build error: Unsupported expression: Unknown function: \'hoppingwindow\'. Available custom functions: ["abs"]',
      'unknown_function',
    ],
    [
      'failed to create pipeline p: pipeline build error: Failed to compile expression: Unsupported expression: Unknown function: \'"cast"\'. Available custom functions: ["abs"]',
      'unknown_function',
    ],
    [
      'failed to create pipeline p: pipeline build error: Invalid configuration: encoder processor failed to resolve output schema: PhysicalBarrier fan-in children output schemas mismatch',
      'semantic',
    ],
    [
      'failed to create pipeline p: pipeline build error: Failed to compile expression: Unsupported expression: Cast { expr: Identifier(Ident { value: "temp", quote_style: None }), data_type: BigInt(None), format: None }',
      'semantic',
    ],
    [
      'failed to create pipeline p: pipeline build error: Failed to compile expression: Unsupported operator: StringConcat',
      'semantic',
    ],
    ['failed to create pipeline p: pipeline build error: SELECT alias `col_1` is reserved', 'semantic'],
    ['failed to create pipeline p: pipeline build error: aliases in GROUP BY are not supported yet', 'semantic'],
    // serde's 422 texts name a "field" too, but they are no verdict on a column.
    ['Failed to deserialize the JSON body into the target type: missing field `sql` at line 1 column 14', 'other'],
    ['invalid nop sink props: invalid type: string "yes", expected a boolean', 'other'],
    ['pipeline source `orders` is not referenced by the SQL', 'other'],
    ['mqtt sink requires broker_url', 'other'],
    ['pipeline must define at least one sink', 'other'],
    ['', 'other'],
  ];

  it.each(cases)('%s → %s', (body, kind) => {
    expect(classifyEngineError(body)).toBe(kind);
  });
});
