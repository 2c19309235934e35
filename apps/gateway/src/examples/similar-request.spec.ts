import type { StoredExample } from '@nl2p/envelope';
import { contentLemmas, similarExample } from './similar-request';

const at = (n: number) => `2026-11-2${n}T10:00:00.000Z`;
const EXAMPLES: StoredExample[] = [
  { request: 'total revenue per country', sql: 'SELECT 1', target: 'duckdb', confirmed_at: at(1) },
  { request: 'average temperature per device, only above 30', sql: 'SELECT 2', target: 'duckdb', confirmed_at: at(2) },
  { request: 'number of shipped orders per status', sql: 'SELECT 3', target: 'duckdb', confirmed_at: at(3) },
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
