import { describeMeaning, type Asked, type Interrupt, type Reading, type WordMeaning } from '@nl2p/envelope';
import type { LinkSchema } from '@nl2p/linking';
import { classifyType } from '@nl2p/query-plan';

/**
 * Words that grade a measure without saying where the line is (`high temperature`, `large
 * orders`): general English, asked as a threshold when said of one measure.
 */
const GRADABLE = new Set([
  'high',
  'low',
  'hot',
  'cold',
  'warm',
  'cool',
  'large',
  'small',
  'big',
  'huge',
  'tiny',
  'heavy',
  'light',
  'expensive',
  'cheap',
  'fast',
  'slow',
  'long',
  'short',
]);

/** The most columns a question lists as numbered choices. */
const MAX_CHOICES = 12;

/**
 * The question a reading raises, with what it asks about (so the reply is read against it) and
 * the choices in the data's words; null when there is none. One slot at a time: the first word
 * that names nothing, else the first that names several things, else what to compute.
 */
export function clarificationFor(
  reading: Pick<Reading, 'tables' | 'unknown' | 'ambiguous' | 'confidence' | 'plan' | 'columns' | 'table' | 'request'>,
  schema: LinkSchema,
  active: string | null,
): Interrupt | null {
  // Name what the data does have: the active table's columns, else those of the tables the rest
  // of the request pointed at (a person can only rephrase with names they are shown).
  const tables = [...new Set([...(active ? [active] : []), ...reading.tables.slice(0, 2).map((c) => c.table)])];
  const shownTables = tables.length ? tables : Object.keys(schema.tables).slice(0, 3);
  const shown = shownTables.map((t) => `${t} has ${(schema.tables[t] ?? []).map((c) => c.name).join(', ')}`).join('; ');
  const word = reading.unknown[0];
  if (word) {
    const threshold = thresholdAsked(word, reading, schema, active);
    if (threshold) return threshold;
    const candidates = shownTables
      .flatMap((t) => (schema.tables[t] ?? []).map((c): WordMeaning => ({ kind: 'column', table: t, column: c.name })))
      .slice(0, MAX_CHOICES);
    const others =
      reading.unknown.length > 1
        ? ` (then: ${reading.unknown
            .slice(1)
            .map((w) => `'${w}'`)
            .join(', ')})`
        : '';
    return {
      type: 'need_clarification',
      question:
        `I could not find '${word}' in the data${others} (${shown}). Which of these should I use for '${word}' — ` +
        'a name, a number from the list, or a definition such as "revenue is quantity times unit price"? ' +
        '("never mind" drops the request.)',
      choices: candidates.map(describeMeaning),
      asked: { kind: 'word', word, candidates },
    };
  }
  const unclear = reading.ambiguous[0];
  if (unclear) {
    const candidates = unclear.candidates.map((c) => labelMeaning(c, reading, schema));
    return {
      type: 'need_clarification',
      question: `'${unclear.phrase}' could mean ${unclear.candidates.join(' or ')}. Which one do you mean?`,
      choices: candidates.map(describeMeaning),
      asked: { kind: 'choice', word: unclear.phrase, candidates },
    };
  }
  if (reading.confidence === 'none' && !reading.plan) {
    const candidates = shownTables.map((t): WordMeaning => ({ kind: 'table', table: t }));
    return {
      type: 'need_clarification',
      question: `What should I compute, and from which data? (${shown})`,
      choices: null,
      asked: { kind: 'measure', candidates },
    };
  }
  return null;
}

/** A gradable word said of one numeric measure the request names: ask where the line is. */
function thresholdAsked(
  word: string,
  reading: Pick<Reading, 'columns' | 'table' | 'request'>,
  schema: LinkSchema,
  active: string | null,
): Interrupt | null {
  if (!GRADABLE.has(word.toLowerCase())) return null;
  const table = active ?? reading.table;
  if (!table) return null;
  const numeric = (schema.tables[table] ?? []).filter((c) => classifyType(c.data_type) === 'number').map((c) => c.name);
  // Said of the measure named last before it (`humidity … where the temperature is high`), else
  // of the one numeric column the reading tied to the request.
  const text = reading.request.toLowerCase();
  const at = text.indexOf(word.toLowerCase());
  // Where a column is said before the word: its whole name, or its first word (`distance` for distance_km).
  const before = (name: string) => {
    const spoken = name.replaceAll('_', ' ').toLowerCase();
    return Math.max(text.lastIndexOf(spoken, at), text.lastIndexOf(spoken.split(' ')[0] ?? spoken, at));
  };
  const named = numeric.filter((n) => before(n) >= 0).sort((a, b) => before(b) - before(a));
  const tied = reading.columns.filter((c) => c.table === table && numeric.includes(c.label));
  const measure = named[0] ?? (tied.length === 1 ? tied[0]?.label : undefined);
  if (!measure) return null;
  // The phrase from the measure to the word (`temperature is high`) is what the answer explains:
  // read as one name, it leaves no word of the request without a role.
  const from = before(measure);
  const phrase = reading.request.slice(from, at + word.length);
  const short = from >= 0 && phrase.split(/\s+/).length <= 5;
  const asked: Asked = { kind: 'threshold', word: short ? phrase : word, table, column: { column: measure } };
  return {
    type: 'need_clarification',
    question: `What counts as '${word}' for ${measure}? Give a number, e.g. "above 30". ("never mind" drops the request.)`,
    choices: null,
    asked,
  };
}

/** An ambiguity's candidate (`column` of the request's table, or `table.column`) as a meaning. */
function labelMeaning(label: string, reading: Pick<Reading, 'table'>, schema: LinkSchema): WordMeaning {
  const dot = label.indexOf('.');
  if (dot > 0 && schema.tables[label.slice(0, dot)]) {
    return { kind: 'column', table: label.slice(0, dot), column: label.slice(dot + 1) };
  }
  const table =
    (reading.table && schema.tables[reading.table]?.some((c) => c.name === label) ? reading.table : null) ??
    Object.keys(schema.tables).find((t) => schema.tables[t]?.some((c) => c.name === label)) ??
    reading.table ??
    '';
  return { kind: 'column', table, column: label };
}
