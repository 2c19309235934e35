import { linkRequest } from './link';
import { fillerReason } from './lexicon';
import { accountTokens, unexplainedTokens, type TokenAccount } from './reading';
import { demoSchema } from './testing/fixtures';
import type { Links } from './types';

const demo = demoSchema();

/** `token:consumer` (`/reason` for filler), for compact expectations. */
const show = (accounts: TokenAccount[]) =>
  accounts.map((a) => `${a.token}:${a.consumed_by}${a.reason ? `/${a.reason}` : ''}`);

/** Links with nothing found, for `text`'s tokens (split on spaces, as the examples are written). */
function emptyLinks(text: string): Links {
  return {
    text,
    tokens: text.split(' '),
    terms: [],
    relations: [],
    allOf: [],
    setComparisons: [],
    quantifiedComparisons: [],
    textMatches: [],
    numbers: [],
    comparisons: [],
    aggregates: [],
    groups: [],
    timeRanges: [],
    timeGroups: [],
    orders: [],
    arithmetic: [],
    ratios: [],
    distinct: false,
    unlinked: [],
    unread: [],
  };
}

const term = (start: number, end: number, kinds: { tables?: number; columns?: number; values?: number }) => ({
  id: 0,
  start,
  end,
  text: '',
  tables: Array.from({ length: kinds.tables ?? 0 }, () => ({ table: 't', score: 1, match: 'exact' as const })),
  columns: Array.from({ length: kinds.columns ?? 0 }, () => ({
    table: 't',
    column: 'c',
    label: 'c',
    score: 1,
    match: 'exact' as const,
  })),
  values: Array.from({ length: kinds.values ?? 0 }, () => ({ table: 't', column: 'c', value: 'v', score: 1 })),
  negated: false,
  projected: false,
});

describe('accountTokens: what consumed every token of a request', () => {
  it('names the kind of link that covered each token, the narrowest when links nest', () => {
    const links: Links = {
      ...emptyLinks('average temperature per device above 30 degrees'),
      terms: [term(1, 2, { columns: 1 }), term(3, 4, { tables: 1, columns: 1 })],
      aggregates: [
        {
          start: 0,
          end: 1,
          text: 'average',
          fn: 'avg',
          distinct: false,
          target: null,
          countsRows: false,
          superlative: false,
        },
      ],
      groups: [{ start: 2, end: 4, text: 'per device', cue: 'per', term: 1, qualifiers: [] }],
      comparisons: [
        {
          start: 4,
          end: 7,
          text: 'above 30 degrees',
          op: '>',
          value: 30,
          high: null,
          unit: 'degrees',
          subject: null,
          hinted: [],
          aggregate: null,
          countsRows: false,
          owner: null,
          excluded: false,
          orWithPrevious: false,
        },
      ],
      numbers: [{ start: 5, end: 7, text: '30 degrees', value: 30, unit: 'degrees', unitColumns: [] }],
    };
    expect(show(accountTokens(links))).toEqual([
      'average:aggregate',
      'temperature:column',
      'per:group',
      // A table and its id column at once: a term.
      'device:term',
      // The comparison's cue; its number and unit are the number inside it.
      'above:comparison',
      '30:number',
      'degrees:number',
    ]);
  });

  it('accounts for the words that say an answer is in each of two sets (`shared by`) as a relation', () => {
    const links: Links = {
      ...emptyLinks('years shared by team CLE and CWS'),
      allOf: [{ start: 1, end: 3, text: 'shared by', terms: [], cue: { start: 1, end: 3, text: 'shared by' } }],
    };
    expect(show(accountTokens(links)).slice(0, 3)).toEqual(['years:filler/cue_word', 'shared:relation', 'by:relation']);
  });

  it('tells filler by the lexicon (with the reason), and leaves any other word unexplained', () => {
    const links = emptyLinks('please show me the readings , getting everything from sensors quickly');
    expect(show(accountTokens(links))).toEqual([
      'please:filler/function_word',
      'show:filler/request_verb',
      'me:filler/function_word',
      'the:filler/function_word',
      'readings:filler/filler_noun',
      ',:filler/punctuation',
      // Inflected request verbs are request verbs.
      'getting:filler/request_verb',
      'everything:filler/filler_noun',
      'from:filler/function_word',
      'sensors:unexplained',
      'quickly:unexplained',
    ]);
  });

  it('a word the linker found naming nothing is unexplained, even one the lexicon knows', () => {
    const links: Links = {
      ...emptyLinks('average wind speed per device'),
      unlinked: [{ start: 1, end: 3, text: 'wind speed' }],
      terms: [term(2, 3, { columns: 1 }), term(4, 5, { tables: 1 })],
    };
    expect(show(accountTokens(links))).toEqual([
      'average:filler/cue_word',
      'wind:unexplained',
      'speed:unexplained',
      'per:filler/function_word',
      'device:table',
    ]);
    expect(unexplainedTokens(accountTokens(links))).toEqual(['wind speed']);
  });

  it('a word an arithmetic defines stands for it (`revenue, quantity times unit price`)', () => {
    const links: Links = {
      ...emptyLinks('revenue per product , where revenue is quantity times price'),
      terms: [term(2, 3, { columns: 1 }), term(7, 8, { columns: 1 }), term(9, 10, { columns: 1 })],
      groups: [{ start: 1, end: 3, text: 'per product', cue: 'per', term: 0, qualifiers: [] }],
      arithmetic: [
        {
          id: 0,
          start: 7,
          end: 10,
          text: 'quantity times price',
          expr: { op: '*', left: { term: 1 }, right: { term: 2 } },
          defines: ['revenue'],
        },
      ],
    };
    const accounts = accountTokens(links);
    expect(show(accounts)).toEqual([
      'revenue:arithmetic',
      'per:group',
      'product:column',
      ',:filler/punctuation',
      'where:filler/function_word',
      'revenue:arithmetic',
      'is:filler/function_word',
      'quantity:column',
      'times:arithmetic',
      'price:column',
    ]);
    expect(unexplainedTokens(accounts)).toEqual([]);
  });

  it('on the linker: a request it reads completely leaves nothing unexplained', () => {
    const accounts = accountTokens(linkRequest('Average temperature per device.', demo));
    expect(accounts.map((a) => a.token)).toEqual(['Average', 'temperature', 'per', 'device', '.']);
    expect(accounts[0]?.consumed_by).toBe('aggregate');
    expect(accounts[1]?.consumed_by).toBe('column');
    expect(accounts[2]?.consumed_by).toBe('group');
    expect(accounts[4]).toEqual({ token: '.', consumed_by: 'filler', reason: 'punctuation' });
    expect(unexplainedTokens(accounts)).toEqual([]);
  });

  it('on the linker: every token is accounted for, in order, and the unknown words are unexplained', () => {
    const text = 'Show the time and temperature of every reading from device dev-03 above 30 degrees, per hour.';
    const links = linkRequest(text, demo);
    const accounts = accountTokens(links);
    expect(accounts.map((a) => a.token)).toEqual(links.tokens);
    expect(accounts.find((a) => a.token === '03')?.consumed_by).toBe('value');
    expect(accounts.find((a) => a.token === 'above')?.consumed_by).toBe('comparison');
    expect(accounts.find((a) => a.token === 'Show')).toMatchObject({ consumed_by: 'filler', reason: 'request_verb' });

    const unknown = accountTokens(linkRequest('Average wind speed per device.', demo));
    expect(unexplainedTokens(unknown)).toEqual(['wind speed']);
  });
});

describe('fillerReason', () => {
  it('reads the lexicon: function words, request verbs (inflected), filler nouns (plural), cue words', () => {
    expect(fillerReason('The')).toBe('function_word');
    expect(fillerReason("don't")).toBe('function_word');
    expect(fillerReason('listing')).toBe('request_verb');
    expect(fillerReason('shipped')).toBe(null);
    expect(fillerReason('records')).toBe('filler_noun');
    expect(fillerReason('hourly')).toBe('cue_word');
    expect(fillerReason('temperature')).toBeNull();
  });
});
