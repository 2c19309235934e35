import type { WordMeaning } from '@nl2p/envelope';
import type { LlmClient, LlmJsonRequest } from '@nl2p/llm';
import { ASK_THE_PERSON, chooseMeaning } from './choose';

const FROM: WordMeaning = { kind: 'column', table: 'flight', column: 'from_airport' };
const TO: WordMeaning = { kind: 'column', table: 'flight', column: 'to_airport' };

/** A model that answers with `choice`, after checking it against the schema it was given, as a decoder would. */
function model(choice: string | Error): LlmClient & { asked: LlmJsonRequest<unknown>[] } {
  const asked: LlmJsonRequest<unknown>[] = [];
  return {
    asked,
    text: () => Promise.reject(new Error('not used')),
    json: <T>(r: LlmJsonRequest<T>) => {
      asked.push(r);
      if (choice instanceof Error) return Promise.reject(choice);
      const value = r.schema.parse({ choice });
      return Promise.resolve({ value, text: JSON.stringify(value), usage: { prompt: 0, completion: 0 } });
    },
  } as unknown as LlmClient & { asked: LlmJsonRequest<unknown>[] };
}

const call = (llm: LlmClient) => ({ llm, request: 'flights from LAX', word: 'LAX', candidates: [FROM, TO] });

describe('chooseMeaning: the model as a chooser among close candidates', () => {
  it('turns the pick into a resolution of this turn, said to be the model’s', async () => {
    await expect(chooseMeaning(call(model('flight.from_airport')))).resolves.toEqual({
      word: 'LAX',
      means: FROM,
      from: 'model',
    });
  });

  it('offers exactly the candidates and asking, nothing else', async () => {
    const llm = model('flight.to_airport');
    await chooseMeaning(call(llm));
    const prompt = JSON.stringify(llm.asked[0]?.messages);
    expect(prompt).toContain('flight.from_airport; flight.to_airport');
    // A name outside the enumeration is not an answer the decoder can give.
    await expect(chooseMeaning(call(model('flight.airport')))).resolves.toBeNull();
  });

  it('leaves the word to the person when the model says the request does not tell, or fails', async () => {
    await expect(chooseMeaning(call(model(ASK_THE_PERSON)))).resolves.toBeNull();
    await expect(chooseMeaning(call(model(new Error('503 overloaded'))))).resolves.toBeNull();
  });

  it('needs at least two distinct candidates to choose among', async () => {
    const llm = model('flight.from_airport');
    await expect(chooseMeaning({ ...call(llm), candidates: [FROM] })).resolves.toBeNull();
    expect(llm.asked).toEqual([]);
  });
});
