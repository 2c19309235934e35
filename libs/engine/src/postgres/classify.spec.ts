import { asPgError, classifyPgError, formatPgError, isPgVerdict } from './classify';

describe('classifyPgError', () => {
  it.each([
    ['42601', 'syntax error at or near "FORM"', 'syntax'],
    ['42703', 'column "temp" does not exist', 'unknown_column'],
    ['42P01', 'relation "sensors" does not exist', 'unknown_stream'],
    ['3F000', 'schema "x" does not exist', 'unknown_stream'],
    ['42883', 'function tumblingwindow(timestamp without time zone) does not exist', 'unknown_function'],
    ['42883', 'operator does not exist: text + integer', 'semantic'],
    ['42803', 'column "t.x" must appear in the GROUP BY clause', 'semantic'],
    ['22012', 'division by zero', 'semantic'],
    ['25006', 'cannot execute DELETE in a read-only transaction', 'semantic'],
    ['57014', 'canceling statement due to statement timeout', 'other'],
    ['08006', 'connection failure', 'other'],
  ])('%s %s → %s', (code, message, kind) => {
    expect(classifyPgError({ code, message })).toBe(kind);
  });

  it('counts only errors about the query text as verdicts', () => {
    expect(isPgVerdict('42703')).toBe(true);
    expect(isPgVerdict('0A000')).toBe(true);
    expect(isPgVerdict('57014')).toBe(false);
    expect(isPgVerdict('53200')).toBe(false);
    expect(isPgVerdict(undefined)).toBe(false);
  });
});

describe('formatPgError', () => {
  it('adds the position inside the caller’s SQL, the SQLSTATE, DETAIL and HINT', () => {
    expect(
      formatPgError(
        {
          code: '42703',
          message: 'column "temp" does not exist',
          position: '16',
          hint: 'Perhaps you meant to reference the column "t.temperature".',
        },
        'EXPLAIN '.length,
      ),
    ).toBe(
      'column "temp" does not exist (at character 8) [SQLSTATE 42703]\nHINT: Perhaps you meant to reference the column "t.temperature".',
    );
    expect(formatPgError({ code: '22012', message: 'division by zero', detail: 'd' })).toBe(
      'division by zero [SQLSTATE 22012]\nDETAIL: d',
    );
  });
});

describe('asPgError', () => {
  it('recognises server errors structurally and ignores socket errors', () => {
    const server = Object.assign(new Error('column "x" does not exist'), {
      code: '42703',
      severity: 'ERROR',
      position: '8',
    });
    expect(asPgError(server)).toEqual({
      code: '42703',
      message: 'column "x" does not exist',
      position: '8',
      detail: undefined,
      hint: undefined,
    });
    expect(asPgError(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toBeNull();
    expect(asPgError('nope')).toBeNull();
  });
});
