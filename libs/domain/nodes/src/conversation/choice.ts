import { describeMeaning, type Reading, type WordMeaning } from '@nl2p/envelope';
import type { LinkSchema } from '@nl2p/linking';
import { classifyType } from '@nl2p/query-plan';
import { clarificationFor } from './ask';

/**
 * What kind of slot a close call is about, so a chooser is asked the right question:
 * - `column`: a word names several columns equally (`time` beside `departure_time`, `arrival_time`);
 * - `value_column`: a value is found in several columns (`JFK` in `from_airport` and `to_airport`);
 * - `time_column`: a word names several time columns of a request about time.
 */
export type ChoiceSlot = 'column' | 'value_column' | 'time_column';

/**
 * A slot of the reading that two or more candidates fit about equally: what the person would be
 * asked, made explicit so that a chooser (the model) can answer it instead. The candidates are
 * the data's own names, enumerated: a chooser picks one of them or leaves the slot to the person.
 */
export interface Choice {
  /** The request as the person wrote it. */
  request: string;
  slot: ChoiceSlot;
  /** The words of the request the slot is about, as written. */
  word: string;
  /** What the word may mean, in the data's names (at least two, all distinct). */
  candidates: WordMeaning[];
  /** A `value_column` slot: the value as the data spells it (`JFK` for `jfk`); else null. */
  value: string | null;
}

type ReadingForChoice = Parameters<typeof clarificationFor>[0];

/**
 * The close call the reading would ask the person about next, or null when its next question is
 * of another kind (a word naming nothing, a threshold, what to compute) or there is none: only a
 * choice among enumerated candidates is a chooser's to answer. It is the same slot and the same
 * candidates {@link clarificationFor} would ask about, so with no chooser the turn is unchanged.
 */
export function choiceOf(
  reading: ReadingForChoice & Pick<Reading, 'request'>,
  schema: LinkSchema,
  active: string | null,
): Choice | null {
  const asked = clarificationFor(reading, schema, active)?.asked;
  if (asked?.kind !== 'choice') return null;
  const labels = asked.candidates.map(describeMeaning);
  // A choice needs two candidates to choose among, each said once.
  if (labels.length < 2 || new Set(labels).size !== labels.length) return null;
  const value = listedValue(asked.word, asked.candidates, schema);
  return {
    request: reading.request,
    slot: value !== null ? 'value_column' : allTime(asked.candidates, schema) ? 'time_column' : 'column',
    word: asked.word,
    candidates: asked.candidates,
    value,
  };
}

/**
 * What choosing candidate `at` means for the word: a value of that column for a `value_column`
 * slot (so the reading no longer finds it in the other columns), else the column itself.
 */
export function meaningChosen(choice: Choice, at: number): WordMeaning | null {
  const picked = choice.candidates[at];
  return picked ? asValue(picked, choice.value) : null;
}

/**
 * What a pick among a choice's candidates means, when the choice is known only as the question
 * asked (the person's reply): the column's value when the word is a listed value of a candidate
 * (`JFK` → `to_airport = 'JFK'`), else the pick itself. Read as a column, a value found in two
 * columns would tie again and the same question come back.
 */
export function pickedMeaning(
  word: string,
  picked: WordMeaning,
  candidates: readonly WordMeaning[],
  schema: LinkSchema,
): WordMeaning {
  return asValue(picked, listedValue(word, candidates, schema));
}

function asValue(picked: WordMeaning, value: string | null): WordMeaning {
  if (value === null || picked.kind !== 'column') return picked;
  return { kind: 'value', table: picked.table, column: picked.column, value };
}

/**
 * The word as one candidate column lists it among its values (`JFK` for `jfk`), or null: then the
 * word names columns rather than being a value in them. Said from the data alone (the linker's
 * readings need not say which kind of tie they report).
 */
function listedValue(word: string, candidates: readonly WordMeaning[], schema: LinkSchema): string | null {
  const spoken = word.trim().toLowerCase();
  for (const c of candidates) {
    if (c.kind !== 'column') continue;
    const found = (schema.values?.[c.table]?.[c.column] ?? []).find((v) => v.trim().toLowerCase() === spoken);
    if (found !== undefined) return found;
  }
  return null;
}

/** Whether every candidate is a time column (a date, a timestamp). */
function allTime(candidates: readonly WordMeaning[], schema: LinkSchema): boolean {
  return candidates.every((c) => {
    const type =
      c.kind === 'column' ? schema.tables[c.table]?.find((col) => col.name === c.column)?.data_type : undefined;
    return type !== undefined && classifyType(type) === 'time';
  });
}
