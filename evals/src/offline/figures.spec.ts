import { figureCells, figuresOf, percentile, textTable, type Scored } from './figures';
import { dropReason } from './linker-eval';

const item = (s: Partial<Scored>): Scored => ({
  expect: 'sql',
  outcome: 'sql',
  match: true,
  runError: false,
  linkMs: 1,
  ...s,
});

describe('offline linker eval figures', () => {
  it('counts matches, wrong answers, questions and hand-offs over the answerable items, and clarify items apart', () => {
    const f = figuresOf([
      item({ linkMs: 1 }),
      item({ match: false, linkMs: 2 }),
      item({ outcome: 'clarification', match: null, linkMs: 3 }),
      item({ outcome: 'model', match: null, runError: true, linkMs: 4 }),
      item({ expect: 'clarify', outcome: 'clarification', match: null, linkMs: 5 }),
      item({ expect: 'clarify', outcome: 'sql', match: null, linkMs: 6 }),
    ]);
    expect(f).toEqual({
      items: 6,
      answerable: 4,
      match: 1,
      acceptedWrong: 1,
      askedAnswerable: 1,
      model: 1,
      runErrors: 1,
      clarifyExpected: 2,
      askedExpected: 1,
      answeredExpected: 1,
      linkP50: 3,
      linkP95: 6,
    });
    expect(figureCells(f)).toEqual([
      '4',
      '1 (25.0 %)',
      '1 (25.0 %)',
      '1',
      '1 (1)',
      '2',
      '1 (50.0 %)',
      '1',
      '3.0 / 6.0',
    ]);
  });

  it('percentile is nearest-rank, 0 for no values', () => {
    expect(percentile([], 50)).toBe(0);
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        95,
      ),
    ).toBe(95);
  });

  it('textTable aligns the first column left and the others right', () => {
    expect(
      textTable(
        ['set', 'n'],
        [
          ['a', '10'],
          ['bbb', '2'],
        ],
      ),
    ).toBe('set   n\n---  --\na    10\nbbb   2');
  });

  it('dropReason names the missing function or the kind of DuckDB error', () => {
    expect(dropReason('Catalog Error: Scalar Function with name to_date does not exist!')).toBe('no function to_date');
    expect(dropReason('Binder Error: Referenced column "x" not found')).toBe('Binder Error');
    expect(dropReason('refused: not a SELECT')).toBe('refused by the read-only check');
  });
});
