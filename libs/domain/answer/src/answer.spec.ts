import { parseQueryPlan } from '@nl2p/query-plan';
import {
  chooseAnswer,
  countsOf,
  modelSentenceProblem,
  numbersIn,
  templateAnswer,
  unbackedNumbers,
  type AnswerInput,
} from './index';

const topCountries: AnswerInput = {
  plan: parseQueryPlan({
    source: 'orders',
    select: [
      { kind: 'value', expr: { kind: 'column', ref: { column: 'country' } } },
      {
        kind: 'aggregate',
        aggregate: { fn: 'sum', arg: { kind: 'column', ref: { column: 'amount' } } },
        alias: 'revenue',
      },
    ],
    group_by: [{ column: 'country' }],
    order_by: [{ key: { kind: 'output', index: 1 }, direction: 'desc' }],
    limit: 3,
  }),
  columns: ['country', 'revenue'],
  rows: [
    ['Germany', 1234.5678],
    ['France', 987.1],
    ['Spain', 400],
  ],
  truncated: false,
  assumptions: [],
};

/** Every sentence the template writes passes the same check a model's sentence must pass. */
function expectBacked(input: AnswerInput): string {
  const text = templateAnswer(input);
  expect(unbackedNumbers(text, input.rows, countsOf(input))).toEqual([]);
  const sentences = text.split(/(?<=\.)\s+(?=[A-Z])/);
  expect(sentences.length).toBeGreaterThanOrEqual(1);
  expect(sentences.length).toBeLessThanOrEqual(3);
  return text;
}

describe('templateAnswer', () => {
  it('names the top N by the measure sorted on, with their values', () => {
    expect(expectBacked(topCountries)).toBe('The top 3 by revenue: Germany (1234.57); France (987.1) and Spain (400).');
  });

  it('states a single value', () => {
    expect(expectBacked({ ...topCountries, plan: null, columns: ['count'], rows: [[42]] })).toBe('Count: 42.');
  });

  it('says when nothing matched, when rows were cut, and that assumptions were made', () => {
    expect(expectBacked({ ...topCountries, rows: [], assumptions: ['a'] })).toBe(
      'No rows match the request. It rests on one assumption, shown with the answer.',
    );
    const cut = expectBacked({ ...topCountries, plan: null, truncated: true, assumptions: ['a', 'b'] });
    expect(cut).toMatch(
      /^The result has 3 rows: .* Only the first 3 rows are shown; there are more\. It rests on 2 assumptions/,
    );
  });
});

describe('numbers in a sentence against the rows', () => {
  it('reads numbers, not dates, with the precision written', () => {
    expect(numbersIn('On 2024-03-01 at 12:00, 1,234.57 units and 3 more').map((n) => n.value)).toEqual([1234.57, 3]);
  });

  it('fails a sentence stating a number no row holds', () => {
    expect(unbackedNumbers('Germany leads with 1234.57, ahead of France at 987.1.', topCountries.rows)).toEqual([]);
    expect(unbackedNumbers('Germany leads with 1300, about 40 % of all revenue.', topCountries.rows)).toEqual([
      '1300',
      '40',
    ]);
  });

  it("uses the model's sentence only when every number in it is in the rows", () => {
    const good = chooseAnswer(
      topCountries,
      'Germany has the highest revenue (1234.57), then France (987.1) and Spain (400).',
    );
    expect(good.by).toBe('model');
    const invented = chooseAnswer(topCountries, 'Germany has the highest revenue, 45 % of the total.');
    expect(invented).toMatchObject({
      by: 'template',
      rejected: expect.stringMatching(/states 45, which no row holds/),
    });
    expect(invented.text).toBe(templateAnswer(topCountries));
    expect(chooseAnswer(topCountries, null).by).toBe('template');
  });
});

describe("a model's sentence", () => {
  it('may state the whole result’s row count when only a preview is given', () => {
    const preview = { ...topCountries, totalRows: 120, truncated: true };
    expect(modelSentenceProblem(preview, 'Germany leads (1234.57) among 120 countries.')).toBeNull();
    expect(modelSentenceProblem(topCountries, 'Germany leads (1234.57) among 120 countries.')).toBe(
      "the model's sentence states 120, which no row holds",
    );
  });

  it('is refused when empty or longer than three sentences', () => {
    expect(modelSentenceProblem(topCountries, '  ')).toBe("the model's sentence is empty");
    const four = 'Germany leads. France follows. Spain is third. That is all.';
    expect(modelSentenceProblem(topCountries, four)).toMatch(/too long \(4 sentences/);
    expect(modelSentenceProblem(topCountries, 'Germany leads with 1234.57. France has 987.1.')).toBeNull();
  });
});

describe('found by the cross-source eval', () => {
  it('ranks by the aggregate when the rows are sorted by a grouped name, not by the name', () => {
    const bySegment: AnswerInput = {
      ...topCountries,
      plan: parseQueryPlan({
        source: 'orders',
        select: [
          { kind: 'value', expr: { kind: 'column', ref: { column: 'segment' } } },
          { kind: 'aggregate', aggregate: { fn: 'count' }, alias: 'orders' },
        ],
        group_by: [{ column: 'segment' }],
        order_by: [{ key: { kind: 'output', index: 0 }, direction: 'asc' }],
      }),
      columns: ['segment', 'orders'],
      rows: [
        ['consumer', 311],
        ['enterprise', 128],
      ],
    };
    expect(expectBacked(bySegment)).toBe('The result has 2 rows: consumer (311) and enterprise (128).');
  });

  it('reads digits inside a row’s text (a model name, a product) as that text, not as numbers', () => {
    const rows = [
      ['TH-200', 55.36],
      ['27-inch Monitor', 3],
    ];
    expect(unbackedNumbers('TH-200 averages 55.36; the 27-inch Monitor sold 3.', rows)).toEqual([]);
    expect(unbackedNumbers('TH-300 averages 55.36.', rows)).toEqual(['-300']);
  });
});
