import { isTypoOf, wordMatch } from './match';
import { linkRequest } from './link';
import { proposePlan } from './propose';
import { carsSchema } from './testing/fixtures';

const schema = carsSchema();

function read(request: string) {
  const p = proposePlan(linkRequest(request, schema), schema);
  return { plan: JSON.stringify(p.plan), confidence: p.confidence, readings: p.readings, doubts: p.doubts };
}

describe('isTypoOf: one slip of the keys in a word that is no word', () => {
  it.each([
    ['prcie', 'price'],
    ['temprature', 'temperature'],
    ['modle', 'model'],
    ['cutomer', 'customer'],
  ])('%s is a typo of %s', (typed, meant) => expect(isTypoOf(typed, meant)).toBe(true));

  it.each([
    ['prize', 'price'],
    ['model', 'modes'],
    ['cost', 'post'],
    ['prcei', 'price'],
  ])('%s is not a typo of %s (a word, too short, or two slips)', (typed, meant) =>
    expect(isTypoOf(typed, meant)).toBe(false),
  );
});

describe('requests read despite spelling', () => {
  it('a typo meets the name it misses, and the reading says so', () => {
    const r = read('average prcie of the cars');
    expect(r.plan).toContain('"fn":"avg","arg":{"kind":"column","ref":{"column":"price_usd"}}');
    expect(r.readings).toContain('"prcie" is read as price_usd');
  });

  it('a slip in a plural is one in its singular: "modles" are models, "medcines" medicine', () => {
    expect(wordMatch('modles', 'model')?.via).toBe('typo');
    expect(wordMatch('medcines', 'medicine')?.via).toBe('typo');
    expect(wordMatch('prizes', 'price')).toBeNull();
  });

  it('a yes/no column is said by its modifier: "automatic" cars have an auto gearbox', () => {
    const r = read('which of the cars are automatic?');
    expect(r.plan).toContain(
      '"left":{"kind":"column","ref":{"column":"has_auto_gearbox"}},"op":"=","value":{"kind":"boolean","value":true}',
    );
  });

  it('a hyphenated word meets a glued name: check-ins are rows of checkin', () => {
    const links = linkRequest('how many check-ins per car?', schema);
    const checkIns = links.terms.find((t) => t.text.startsWith('check'));
    expect(checkIns?.end).toBe((checkIns?.start ?? 0) + 2);
    expect(checkIns?.tables[0]?.table).toBe('checkin');
  });

  it('a key is never summed: "total number of check-ins" counts the check-ins, not the sum of cid', () => {
    const r = read('total number of check-ins');
    expect(r.plan).toContain('"source":"checkin"');
    expect(r.plan).toContain('"aggregate":{"fn":"count","arg":null,"distinct":false}');
    expect(r.plan).not.toContain('"fn":"sum"');
  });

  it('a sum of a key said outright is a doubt', () => {
    const r = read('the sum of the cid of all check-ins');
    expect(r.confidence).not.toBe('high');
    expect(r.doubts.join(' ')).toContain('a sum of identifiers means nothing');
  });
});
