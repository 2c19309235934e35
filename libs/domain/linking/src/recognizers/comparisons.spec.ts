import { linkCorpus, type Example } from '../testing/corpus';
import type { Links } from '../types';

/** `words: op value` with what it is about: the subject term, an aggregate, the rows' noun (owner), excluded, or-joined. */
type About = { said: string; subject?: string; aggregate?: string; owner?: string; excluded?: true; or?: true };

const about = (l: Links): About[] =>
  l.comparisons.map((c) => ({
    said: `${c.text}: ${c.op} ${c.value}`,
    ...(c.subject !== null ? { subject: l.terms[c.subject]?.text } : {}),
    ...(c.aggregate ? { aggregate: c.countsRows ? 'count of rows' : c.aggregate } : {}),
    ...(c.owner !== null ? { owner: l.terms[c.owner]?.text } : {}),
    ...(c.excluded ? { excluded: true as const } : {}),
    ...(c.orWithPrevious ? { or: true as const } : {}),
  }));

describe('comparisons', () => {
  const EXAMPLES: Example<About[]>[] = [
    { say: 'Readings where humidity was below 40.', means: [{ said: 'below 40: < 40', subject: 'humidity' }] },
    {
      say: 'Orders with a quantity of at least 4.',
      means: [{ said: 'at least 4: >= 4', subject: 'quantity', owner: 'Orders' }],
    },
    {
      say: 'Trips with more than 3 passengers.',
      on: 'taxi',
      means: [{ said: 'more than 3: > 3', subject: 'passengers', owner: 'Trips' }],
    },
    {
      say: 'Devices whose average temperature exceeds 30.',
      means: [{ said: 'exceeds 30: > 30', subject: 'temperature', aggregate: 'avg' }],
    },
    {
      say: 'Customers with more than 5 orders.',
      means: [{ said: 'more than 5 orders: > 5', aggregate: 'count of rows', owner: 'Customers' }],
    },
    // The noun counted after a trailing cue.
    {
      say: 'Customers with two or more orders.',
      means: [{ said: 'two or more orders: >= 2', aggregate: 'count of rows', owner: 'Customers' }],
    },
    {
      say: 'Customers with more than 5 corresponding orders.',
      means: [{ said: 'more than 5 corresponding orders: > 5', aggregate: 'count of rows', owner: 'Customers' }],
    },
    { say: 'Readings excluding readings below 0.', means: [{ said: 'below 0: < 0', excluded: true }] },
    {
      say: 'Readings with temperature above 30 or humidity above 80.',
      means: [
        { said: 'above 30: > 30', subject: 'temperature', owner: 'Readings' },
        { said: 'above 80: > 80', subject: 'humidity', or: true },
      ],
    },
    // `or more than …` goes on to another comparison; it is no `or more` after the first.
    {
      say: 'Orders with either less than 3 units or more than 10 units.',
      means: [
        { said: 'less than 3: < 3', subject: 'units' },
        { said: 'more than 10: > 10', subject: 'units', or: true },
      ],
    },
  ];
  linkCorpus(EXAMPLES, about);
});
