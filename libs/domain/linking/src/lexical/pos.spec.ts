import { partsOfSpeech, posAt } from './pos';

describe('partsOfSpeech', () => {
  const tagOf = (text: string, word: string) => posAt(partsOfSpeech(text), text.indexOf(word));

  it.each([
    ['What are the top 5 domains with the most authors associated with them?', 'associated', 'VERB'],
    ['How many authors have published more than 2 papers?', 'published', 'VERB'],
    ['Which restaurants serve Italian food?', 'serve', 'VERB'],
    ['Which restaurants serve Italian food?', 'restaurants', 'NOUN'],
    ["How many orders weren't shipped?", 'shipped', 'VERB'],
  ])('%s: %s is a %s', (text, word, tag) => {
    expect(tagOf(text, word)).toBe(tag);
  });

  it('finds every word at its offsets, whatever wink makes of contractions and punctuation', () => {
    const text = "Drivers' ages (years), don't round!";
    for (const t of partsOfSpeech(text)) expect(text.slice(t.start, t.end).length).toBeGreaterThan(0);
    expect(posAt(partsOfSpeech(text), text.indexOf('round'))).toBe('VERB');
  });
});
