import { newSessionEnvelope, type Envelope } from '@nl2p/envelope';
import type { Catalog } from '@nl2p/engine';
import { planMessages } from './plan-prompts';
import { draftMessages } from './prompts';
import { readingHintText, type ReadingHint } from './reading-hint';

const READING: ReadingHint = {
  tables: [
    { table: 'flights', score: 2 },
    { table: 'airports', score: 1 },
  ],
  ambiguous: [{ phrase: 'JFK', candidates: ['from_airport', 'to_airport'] }],
  assumptions: ['an order said without a direction is ascending'],
  unexplained: ['JFK', 'lately'],
};

describe('the reading as a server model’s hint', () => {
  it('names the tables, each close call with its candidates, the assumptions and what nothing explained', () => {
    expect(readingHintText(READING)).toBe(
      [
        "What the request's words were read as (a hint):",
        'Tables the words point at, best first: flights, airports',
        "'JFK' fits from_airport and to_airport equally: choose by the request's other words, or ask if they do not tell",
        'How words were read: an order said without a direction is ascending',
        'Words nothing explained: lately',
      ].join('\n'),
    );
    expect(readingHintText({ tables: [], ambiguous: [], assumptions: [], unexplained: [] })).toBe('');
    expect(readingHintText(null)).toBe('');
  });

  it('is in the plan prompt of a server model, not of the embedded one', () => {
    const input = {
      request: 'how many flights for JFK',
      vocabulary: { tables: ['flights'], columns: [], streaming: false, allowBeyond: true },
      tables: {},
      values: {},
      hint: { table: 'flights' },
      revision: null,
      reading: READING,
    };
    const user = (compact: boolean) => planMessages({ ...input, compact })[1]?.content ?? '';
    expect(user(false)).toContain("'JFK' fits from_airport and to_airport equally");
    expect(user(true)).not.toContain('fits from_airport');
  });

  it('is in the free-SQL draft prompt with the reading’s plan, for this turn’s request only', () => {
    const plan = { source: 'flights', select: [{ kind: 'count_star' as const }] };
    const request = 'how many flights for JFK';
    const session = newSessionEnvelope({
      sessionId: 'a'.repeat(32),
      target: 'duckdb',
      maxAttempts: 5,
      sink: { type: 'nop', props: {} },
    });
    const reading = { ...READING, request, plan } as unknown as NonNullable<Envelope['reading']>;
    const catalog: Catalog = { dialect: 'duckdb', functions: [], syntax: [], dialectNotes: [] };
    const user = (e: Envelope) => draftMessages(e, catalog)[1]?.content ?? '';
    const drafted = user({ ...session, request, reading });
    expect(drafted).toContain(`Plan found from the request's words (a hint, not SQL): ${JSON.stringify(plan)}`);
    expect(drafted).toContain("'JFK' fits from_airport and to_airport equally");
    expect(user({ ...session, request: 'another request', reading })).not.toContain('a hint');
  });
});
