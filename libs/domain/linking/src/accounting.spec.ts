import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILLER_REASONS } from './lexicon';
import { accountTokens, LINK_KINDS } from './reading';
import { linksOf, proposalOf, type SchemaName } from './testing/corpus';

/**
 * The reading's contract, as a property over every request of the public eval sets: each token
 * is accounted for (consumed by a link, filler with its reason, or unexplained), and an
 * unexplained word is never dropped in silence — the links report it (unlinked or unread) and the
 * proposal is not conclusive. The held-out set is left out on purpose: it is measured, never
 * looked at item by item, and a failing property would print its requests.
 */
const SETS: [file: string, on: SchemaName][] = [
  ['duckdb-demo.json', 'demo'],
  ['veloflux-examples.json', 'stream'],
];

const requests = SETS.flatMap(([file, on]) => {
  const path = join(__dirname, '../../../../evals/datasets', file);
  const set = JSON.parse(readFileSync(path, 'utf8')) as { items: { request: string }[] };
  return set.items.map((i) => [i.request, on] as const);
});

describe('every word of a request is accounted for (public eval sets)', () => {
  it('reads the sets', () => {
    expect(requests.length).toBeGreaterThan(50);
  });

  it.each(requests)('%s', (request, on) => {
    const links = linksOf(request, on);
    const accounts = accountTokens(links);
    expect(accounts.map((a) => a.token)).toEqual(links.tokens);
    const reported = new Set<number>();
    for (const s of [...links.unlinked, ...links.unread]) for (let k = s.start; k < s.end; k++) reported.add(k);
    accounts.forEach((a, i) => {
      if (a.consumed_by === 'filler') expect(FILLER_REASONS).toContain(a.reason);
      else if (a.consumed_by === 'unexplained')
        expect({ token: a.token, reported: reported.has(i) }).toEqual({ token: a.token, reported: true });
      else expect(LINK_KINDS).toContain(a.consumed_by);
    });
    if (reported.size) expect(proposalOf(request, on).confidence).not.toBe('high');
  });
});
