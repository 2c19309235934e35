import { senses } from './wordnet';

const VOWELS = /[aeiou]/;
const isWord = (w: string) => senses(w, 'n').length > 0 || senses(w, 'a').length > 0 || senses(w, 'v').length > 0;

/**
 * How surely `short` abbreviates `long` by the way identifiers are shortened in any schema, with
 * no list: a prefix (`auto` of automatic, `cust` of customer: 0.85), or a prefix followed by
 * consonants of the rest in order (`qty` quantity, `amt` amount, `dept` department, `pct`
 * percent: 0.75). The first letters must agree, the short form is at least three letters (two
 * are too many words' starts) and leaves out at least two; a vowel after the prefix breaks it
 * (`cat` is not contact). A short form that is a word of its own is a prefix only of a much
 * longer word, and weaker (`auto` of automatic: 0.6; `age` is not agent, `car` not card). 0 when
 * it is no abbreviation.
 */
export function abbreviationScore(short: string, long: string): number {
  if (short.length < 3 || long.length < short.length + 2 || /\d/.test(short + long)) return 0;
  if (long.startsWith(short)) return !isWord(short) ? 0.85 : long.length - short.length >= 4 ? 0.6 : 0;
  let prefix = 0;
  while (prefix < short.length && short[prefix] === long[prefix]) prefix++;
  if (prefix === 0 || isWord(short)) return 0;
  let at = prefix;
  for (const ch of short.slice(prefix)) {
    if (VOWELS.test(ch)) return 0;
    const found = long.indexOf(ch, at);
    if (found < 0) return 0;
    at = found + 1;
  }
  return 0.75;
}
