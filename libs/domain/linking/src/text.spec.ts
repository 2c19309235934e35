import { identifierWords, singular, stem, tokenize, valueWords } from './text';

describe('tokenize', () => {
  it('keeps identifiers and values in pieces glued by - _ / and camelCase', () => {
    const t = tokenize('dev-03 unit_price pickupTs 10-minute');
    expect(t.map((x) => x.norm)).toEqual(['dev', '03', 'unit', 'price', 'pickup', 'ts', '10', 'minute']);
    expect(t.map((x) => x.joined)).toEqual([false, true, false, true, false, true, false, true]);
  });

  it('folds case and diacritics, drops possessive s, keeps punctuation and decimals', () => {
    const t = tokenize("García's bucket's start: 9.99?");
    expect(t.map((x) => x.norm)).toEqual(['garcia', 'bucket', 'start', ':', '9.99', '?']);
    expect(t.find((x) => x.norm === '9.99')?.kind).toBe('number');
  });
});

describe('identifier and value words', () => {
  it('splits snake_case, camelCase and prefixes', () => {
    expect(identifierWords('unit_price')).toEqual(['unit', 'price']);
    expect(identifierWords('tipAmt')).toEqual(['tip', 'amt']);
    expect(identifierWords('PU-Borough')).toEqual(['pu', 'borough']);
  });

  it('reads values as a request would say them', () => {
    expect(valueWords('Office Chair')).toEqual(['office', 'chair']);
    expect(valueWords('hamburg-port')).toEqual(['hamburg', 'port']);
  });

  it('singularises without mangling short words and stems verbs', () => {
    expect(singular('readings')).toBe('reading');
    expect(singular('ids')).toBe('id');
    expect(singular('status')).toBe('status');
    expect(stem('ordered')).toBe(stem('order'));
  });
});
