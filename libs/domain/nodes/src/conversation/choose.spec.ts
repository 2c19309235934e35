import type { WordMeaning } from '@nl2p/envelope';
import type { LinkSchema } from '@nl2p/linking';
import { OpenAiLlmClient } from '@nl2p/llm';
import { ScriptedLlm } from '@nl2p/testing';
import { readRequest, type ReadingOptions } from '../reading';
import { choiceOf, type Choice } from './choice';
import { ASK_THE_PERSON, chooseMeaning, readWithChooser } from './choose';

const FROM: WordMeaning = { kind: 'column', table: 'flight', column: 'from_airport' };
const TO: WordMeaning = { kind: 'column', table: 'flight', column: 'to_airport' };
const DEPARTS: WordMeaning = { kind: 'column', table: 'flight', column: 'departure_time' };
const ARRIVES: WordMeaning = { kind: 'column', table: 'flight', column: 'arrival_time' };

/** Flights whose airports are listed values of two columns: `JFK` alone does not say which. */
const FLIGHTS: LinkSchema = {
  tables: {
    flight: [
      { name: 'flight_id', data_type: 'INTEGER' },
      { name: 'from_airport', data_type: 'VARCHAR' },
      { name: 'to_airport', data_type: 'VARCHAR' },
      { name: 'departure_time', data_type: 'TIMESTAMP' },
      { name: 'arrival_time', data_type: 'TIMESTAMP' },
      { name: 'airline', data_type: 'VARCHAR' },
    ],
  },
  values: { flight: { from_airport: ['JFK', 'LAX', 'ORD'], to_airport: ['JFK', 'LAX', 'ORD'], airline: ['AA', 'UA'] } },
  streaming: false,
};
const OPTIONS: ReadingOptions = { linking: true, mode: 'plan', trustLinks: true };

const CHOICE: Choice = {
  request: 'flights from LAX',
  slot: 'value_column',
  word: 'LAX',
  candidates: [FROM, TO],
  value: 'LAX',
};

describe('choiceOf: a close call of the reading, made explicit', () => {
  it('is the value whose column the reading could not tell, with the columns in the data’s names', () => {
    const reading = readRequest('how many flights are there for JFK', FLIGHTS, OPTIONS);
    expect(choiceOf(reading, FLIGHTS, null)).toEqual({
      request: 'how many flights are there for JFK',
      slot: 'value_column',
      word: 'JFK',
      candidates: [FROM, TO],
      value: 'JFK',
    });
  });

  it('is a time column when the word fits several time columns equally', () => {
    const reading = readRequest('show the time of flights on AA', FLIGHTS, OPTIONS);
    expect(choiceOf(reading, FLIGHTS, null)).toEqual({
      request: 'show the time of flights on AA',
      slot: 'time_column',
      word: 'time',
      candidates: [DEPARTS, ARRIVES],
      value: null,
    });
  });

  it('is none when the reading is settled, or its question is about a word naming nothing', () => {
    expect(choiceOf(readRequest('how many flights per airline', FLIGHTS, OPTIONS), FLIGHTS, null)).toBeNull();
    expect(choiceOf(readRequest('average ticket price per airline', FLIGHTS, OPTIONS), FLIGHTS, null)).toBeNull();
  });
});

describe('chooseMeaning: the model as a chooser, over HTTP to a scripted model', () => {
  const server = new ScriptedLlm();
  let llm: OpenAiLlmClient;
  const models = { router: 'm', preview: 'm', reasoning: 'm' };

  beforeAll(async () => {
    const baseUrl = await server.start();
    llm = new OpenAiLlmClient({ baseUrl, apiKey: 'k', models, timeoutMs: 2_000, maxRetries: 0 });
  });
  afterEach(() => server.reset());
  afterAll(() => server.stop());

  const answers = (choice: string) => server.enqueue({ content: JSON.stringify({ choice }) });

  it('turns the pick into a resolution of this turn, said to be the model’s', async () => {
    answers('flight.from_airport');
    await expect(chooseMeaning({ llm, choice: CHOICE })).resolves.toEqual({
      word: 'LAX',
      means: { ...FROM, kind: 'value', value: 'LAX' },
      from: 'model',
    });
    // A word naming columns is read as the column picked.
    answers('flight.arrival_time');
    const times = [DEPARTS, ARRIVES];
    const choice: Choice = {
      request: 'the time of each flight',
      slot: 'time_column',
      word: 'time',
      candidates: times,
      value: null,
    };
    await expect(chooseMeaning({ llm, choice })).resolves.toEqual({ word: 'time', means: ARRIVES, from: 'model' });
  });

  it('shows the model the request, the slot’s question and exactly the candidates', async () => {
    answers('flight.to_airport');
    await chooseMeaning({ llm, choice: CHOICE });
    const prompt = (server.lastRequest?.messages ?? []).map((m) => m.content).join('\n');
    expect(prompt).toContain('<user_request>flights from LAX</user_request>');
    expect(prompt).toContain("'LAX' is a value found in several columns");
    expect(prompt).toContain('Candidates: flight.from_airport; flight.to_airport');
  });

  it('never takes a name outside the enumeration', async () => {
    // A server that ignores the schema and invents a column: not an answer, so the person is asked.
    server.enqueue({ content: '{"choice": "flight.airport"}' }, { content: '{"choice": "flight.airport"}' });
    await expect(chooseMeaning({ llm, choice: CHOICE })).resolves.toBeNull();
  });

  it('leaves the slot to the person when the model says the request does not tell, or fails', async () => {
    answers(ASK_THE_PERSON);
    await expect(chooseMeaning({ llm, choice: CHOICE })).resolves.toBeNull();
    server.enqueue({ status: 400 });
    await expect(chooseMeaning({ llm, choice: CHOICE })).resolves.toBeNull();
  });

  it('needs at least two distinct candidates to choose among', async () => {
    await expect(chooseMeaning({ llm, choice: { ...CHOICE, candidates: [FROM, FROM] } })).resolves.toBeNull();
    expect(server.requests).toEqual([]);
  });

  it('reads the request again with the pick, and says so in the assumptions', async () => {
    answers('flight.to_airport');
    const first = readRequest('how many flights are there for JFK', FLIGHTS, OPTIONS);
    const ctx = { llm, schema: FLIGHTS, active: null, options: OPTIONS, resolutions: [] };
    const { reading, choices } = await readWithChooser(first, ctx);

    expect(choices).toEqual([{ choice: expect.objectContaining({ word: 'JFK' }), chosen: expect.anything() }]);
    expect(reading.ambiguous).toEqual([]);
    expect(JSON.stringify(reading.plan?.where)).toContain('to_airport');
    expect(reading.confidence).toBe('high');
    expect(reading.assumptions.join('\n')).toMatch(/"JFK" is read as to_airport = 'JFK', the model’s choice/);
  });

  it('keeps the first reading, and its question, when the model leaves it to the person', async () => {
    answers(ASK_THE_PERSON);
    const first = readRequest('how many flights are there for JFK', FLIGHTS, OPTIONS);
    const ctx = { llm, schema: FLIGHTS, active: null, options: OPTIONS, resolutions: [] };
    const { reading } = await readWithChooser(first, ctx);
    expect(reading).toBe(first);
    expect(choiceOf(reading, FLIGHTS, null)?.word).toBe('JFK');
  });
});
