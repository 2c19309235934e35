/**
 * A sentence about rows may only state numbers the rows hold: a model that writes "about 40 %"
 * when no row says 40 has invented it. Numbers are compared at the precision the sentence uses
 * (31.2 stands for 31.2345), and thousands separators are read away.
 */
const NUMBER = /-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/g;

export function numbersIn(sentence: string): { text: string; value: number; decimals: number }[] {
  // Dates and times name rows (`2024-03-01`, `12:00`); they are checked as text, not numbers.
  const withoutDates = sentence.replace(/\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?Z?)?|\d{2}:\d{2}(?::\d{2})?/g, ' ');
  return [...withoutDates.matchAll(NUMBER)].map((m) => {
    const text = m[0].replace(/,/g, '');
    const decimals = text.includes('.') ? (text.split('.')[1] ?? '').length : 0;
    return { text: m[0], value: Number(text), decimals };
  }).filter((n) => Number.isFinite(n.value));
} // prettier-ignore

/** Every number of the rows, as stated or as a number inside text. */
function rowNumbers(rows: readonly (readonly unknown[])[]): number[] {
  return rows.flatMap((row) =>
    row.flatMap((v) => {
      if (typeof v === 'number') return [v];
      if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return [Number(v)];
      return [];
    }),
  );
}

/**
 * The numbers of `sentence` that appear nowhere in `rows` (nor in `allowed`, e.g. the row count),
 * each compared at the sentence's own precision. Empty: every number is backed by the rows.
 */
export function unbackedNumbers(
  sentence: string,
  rows: readonly (readonly unknown[])[],
  allowed: readonly number[] = [],
): string[] {
  const known = [...rowNumbers(rows), ...allowed];
  return numbersIn(withoutRowTexts(sentence, rows))
    .filter((n) => !known.some((k) => roundTo(k, n.decimals) === roundTo(n.value, n.decimals) || Math.abs(k) === Math.abs(n.value)))
    .map((n) => n.text);
} // prettier-ignore

/**
 * The sentence with every text value of the rows that holds a digit taken out: a name such as
 * `TH-200` or `27-inch Monitor` is the row's text, not a number the sentence states. Longest
 * first, so a value is never cut by a shorter one it contains.
 */
function withoutRowTexts(sentence: string, rows: readonly (readonly unknown[])[]): string {
  const texts = new Set(rows.flatMap((row) => row.filter((v): v is string => typeof v === 'string' && /\d/.test(v) && !/^-?\d+(\.\d+)?$/.test(v.trim()))));
  return [...texts].sort((a, b) => b.length - a.length).reduce((text, value) => text.split(value).join(' '), sentence);
} // prettier-ignore

function roundTo(x: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}
