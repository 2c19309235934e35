import type { StoredExample } from '@nl2p/envelope';
import { closeExamples, contentLemmas, earlierQuestions, similarExample } from './similar-request';

const at = (n: number) => `2026-11-2${n}T10:00:00.000Z`;
const EXAMPLES: StoredExample[] = [
  { request: 'total revenue per country', sql: 'SELECT 1', target: 'duckdb', plan: null, confirmed_at: at(1) },
  {
    request: 'average temperature per device, only above 30',
    sql: 'SELECT 2',
    target: 'duckdb',
    plan: null,
    confirmed_at: at(2),
  },
  {
    request: 'number of shipped orders per status',
    sql: 'SELECT 3',
    target: 'duckdb',
    plan: null,
    confirmed_at: at(3),
  },
];

describe('a request close to an earlier question', () => {
  it('reads words as their dictionary forms, without the function words', () => {
    expect(contentLemmas('How many orders were shipped per country?')).toEqual(['order', 'ship', 'country']);
  });

  it.each([
    ['the total revenue for each country', 'total revenue per country'],
    ['average temperatures per device above 30', 'average temperature per device, only above 30'],
    ['number of orders shipped by status', 'number of shipped orders per status'],
  ])('%s is like "%s"', (request, earlier) => {
    expect(similarExample(request, EXAMPLES)?.request).toBe(earlier);
  });

  it.each([
    ['total revenue per category'], // one word in three differs: another question
    ['average humidity per site'],
    ['list the customers'],
    ['the'],
  ])('%s is like none of them', (request) => {
    expect(similarExample(request, EXAMPLES)).toBeNull();
  });

  it('finds nothing without examples', () => {
    expect(similarExample('total revenue per country', [])).toBeNull();
  });
});

describe('the closest earlier questions', () => {
  it('ranks every question sharing a content word, closest first, at most `limit`', () => {
    const close = closeExamples('average temperature per device above 25', EXAMPLES, 2).map((e) => e.request);
    expect(close).toEqual(['average temperature per device, only above 30']);
    expect(closeExamples('orders per country', EXAMPLES, 1).map((e) => e.request)).toHaveLength(1);
    expect(closeExamples('orders per country', EXAMPLES, 5).map((e) => e.request)).toEqual(
      expect.arrayContaining(['total revenue per country', 'number of shipped orders per status']),
    );
  });

  it('is empty when nothing is shared', () => {
    expect(closeExamples('list the customers', EXAMPLES, 3)).toEqual([]);
  });

  it('keeps only the session engine’s questions for reuse, and shows one of any engine', () => {
    const mixed = [
      ...EXAMPLES,
      { ...EXAMPLES[1], request: 'average temperature per device above 30', target: 'postgres' },
    ];
    const found = earlierQuestions('average temperature per device above 30', mixed, 'duckdb', 5);
    expect(found.similar?.request).toBe('average temperature per device above 30');
    expect(found.close.map((e) => e.request)).toEqual(['average temperature per device, only above 30']);
  });
});
