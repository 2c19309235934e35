import { numberOf, type Token } from '../text';

/** Words that may follow a number as its unit. Time units are left to the time parsers (time/). */
const UNIT_WORDS = new Set([
  'degree',
  'degrees',
  '°',
  '°c',
  '°f',
  'celsius',
  'fahrenheit',
  'percent',
  'percentage',
  '%',
  'pct',
  'km',
  'kmh',
  'kph',
  'mph',
  'kg',
  'kilograms',
  'g',
  'grams',
  'pounds',
  'lbs',
  'tons',
  'miles',
  'meters',
  'metres',
  'm',
  'cm',
  'mm',
  'dollars',
  'dollar',
  'euros',
  'euro',
  'usd',
  'eur',
  'gbp',
  'cents',
  'bucks',
  'volts',
  'v',
  'watts',
  'w',
  'kwh',
]);
const CURRENCY_SIGNS = new Set(['$', '€', '£']);

export interface FoundNumber {
  at: number;
  end: number;
  value: number;
  unit: string | null;
}

/** The number at `i` and its unit, or null when `i` is not a quantity (`dev-03`, `TH-300`). */
export function numberAt(tokens: readonly Token[], i: number): FoundNumber | null {
  const t = tokens[i];
  if (!t) return null;
  const value = numberOf(t);
  if (value === null) return null;
  // Part of an identifier: glued to a preceding word.
  if (t.kind === 'number' && t.joined && tokens[i - 1]?.kind === 'word') return null;
  let end = i + 1;
  let unit: string | null = null;
  const next = tokens[i + 1];
  if (next && UNIT_WORDS.has(next.norm)) {
    unit = next.norm;
    end = i + 2;
    // km/h
    if (next.norm === 'km' && tokens[i + 2]?.norm === 'h' && tokens[i + 2]?.joined) {
      unit = 'km/h';
      end = i + 3;
    }
  } else if (CURRENCY_SIGNS.has(tokens[i - 1]?.norm ?? '')) {
    unit = tokens[i - 1]?.norm ?? null;
  }
  return { at: i, end, value, unit };
}
