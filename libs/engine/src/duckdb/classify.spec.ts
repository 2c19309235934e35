import { classifyDuckDbError, isDuckDbInfrastructureError, isDuckDbInterrupt } from './classify';

describe('classifyDuckDbError', () => {
  it.each([
    ['Parser Error: syntax error at or near "SELEC"', 'syntax'],
    [
      'Binder Error: Referenced column "temp" not found in FROM clause!\nCandidate bindings: "temperature"',
      'unknown_column',
    ],
    ['Binder Error: Table "t" does not have a column named "nosuch"', 'unknown_column'],
    ['Catalog Error: Table with name sensors does not exist!\nDid you mean "sensor_readings"?', 'unknown_stream'],
    ['Binder Error: Referenced table "x" not found!\nCandidate tables: "t"', 'unknown_stream'],
    ['Catalog Error: Scalar Function with name tumblingwindow does not exist!', 'unknown_function'],
    ['Catalog Error: Table Function with name read_foo does not exist!', 'unknown_function'],
    [
      'Binder Error: column "a" must appear in the GROUP BY clause or must be part of an aggregate function.',
      'semantic',
    ],
    ["Binder Error: No function matches the given name and argument types 'sum(VARCHAR)'.", 'semantic'],
    ["Conversion Error: Could not convert string 'x' to INT32", 'semantic'],
    [
      'Permission Error: Cannot access file "/x.csv" - file system operations are disabled by configuration',
      'semantic',
    ],
    ['Something unexpected', 'other'],
  ])('%s → %s', (message, kind) => {
    expect(classifyDuckDbError(message)).toBe(kind);
  });

  it('tells environment failures and interrupts from verdicts on the SQL', () => {
    expect(isDuckDbInterrupt('INTERRUPT Error: Interrupted!')).toBe(true);
    expect(isDuckDbInfrastructureError('INTERRUPT Error: Interrupted!')).toBe(true);
    expect(isDuckDbInfrastructureError('Out of Memory Error: failed to allocate')).toBe(true);
    expect(isDuckDbInfrastructureError('IO Error: Could not read file')).toBe(true);
    expect(isDuckDbInfrastructureError('Binder Error: Referenced column "x" not found')).toBe(false);
    expect(isDuckDbInterrupt('Binder Error: Interrupted!')).toBe(false);
  });
});
