import { FUNCTION_WORDS, REQUEST_VERBS } from '../lexicon';
import { partsOfSpeech, posAt } from '../lexical/pos';
import type { TermLink } from '../types';
import { norm, type LinkRule, type LinkState } from './rule';
import { booleanColumn } from './term-kinds';

const NEGATIONS = new Set(['not', 'never', 'neither', 'nor', 'except', 'excluding', 'exclude', 'without', 'no']);

/**
 * Negation: `not cancelled`, `neither cancelled nor returned`, `except books`, `not ok`, `trips
 * without tips`. Marks the values (and yes/no columns) it reaches as negated, reaching past the
 * column named before its value (`except device dev-01`); where each negation word is, for the
 * words no link read (unread).
 */
export const negation: LinkRule = {
  name: 'negation',
  apply(s) {
    for (let i = 0; i < s.tokens.length; i++) {
      const w = norm(s, i);
      const said =
        NEGATIONS.has(w) || /n['’]t$/.test(s.tokens[i]?.text ?? '') || (w === 'other' && norm(s, i + 1) === 'than');
      if (!said || s.taken.has(i)) continue;
      s.negationAt.push(i);
      negateAfter(s, i, w);
    }
  },
};

/** Marks what the negation word `w` at `i` reaches, up to six tokens on. */
function negateAfter(s: LinkState, i: number, w: string): void {
  let k = i + 1;
  let hit = false;
  while (k < s.tokens.length && k <= i + 6) {
    const t = s.termAt.get(k);
    if (t && t.values.length) {
      t.negated = true;
      hit = true;
      k = t.end;
      continue;
    }
    const nw = norm(s, k);
    // The column named before its value (`except device dev-01`) is part of the negated phrase.
    if (t && columnBeforeItsValue(s, t)) {
      k = t.end;
      continue;
    }
    // A yes/no column said as a condition (`not ok`, `vehicles that are not ok`).
    if (t && !t.values.length && t.start === k && booleanColumn(t, s.index)) {
      t.negated = true;
      hit = true;
      k = t.end;
      continue;
    }
    if (t && !t.values.length) {
      // `customers who have not placed any orders`: rows of another table said absent (absence).
      // `trips without tips`: a measure said absent; what "absent" means (0, NULL) is not said.
      // After `any` a noun counts things (`do not have any policies`): rows, when it names a table at all.
      const counted = norm(s, k - 1) === 'any' && t.tables.length > 0;
      if (!hit && t.start === k && (namesTable(t) || counted || w === 'without' || w === 'no')) t.negated = true;
      // `written any papers`: a verb naming the table between (writes) and the rows said absent.
      const next = t.negated && namesTable(t) ? tableAfter(s, t.end) : null;
      if (next) next.negated = true;
      break;
    }
    if (hit && !['or', 'nor', 'and', ',', 'the', 'a', 'any'].includes(nw)) break;
    const passable = FUNCTION_WORDS.has(nw) || REQUEST_VERBS.has(nw) || nw === 'than' || isVerb(s, k);
    if (!hit && !passable && s.tokens[k]?.kind !== 'punct') break;
    k++;
  }
}

/**
 * A term that names a table rather than one of its columns (`orders`, not `order date`). A key
 * column it also meets (`policies` ~ `Policy_ID`) names the same rows, so it does not outweigh.
 */
function namesTable(t: TermLink): boolean {
  const table = t.tables[0]?.score ?? 0;
  return table > 0 && !t.columns.some((c) => c.score > table && !KEY_COLUMN.test(c.column));
}

/** `policy_id`, `PolicyID`, `id`: a column naming rows of a table, not an attribute. */
const KEY_COLUMN = /(^|_)id$|[a-z]ID$|[a-z]Id$/i;

/**
 * The term naming a table right after `k`, past `any`, `a`, `the` and one preposition (`written
 * any papers`, `enrolled in any course`, `devices in stock`): the rows the absent ones are in.
 */
function tableAfter(s: LinkState, k: number): TermLink | null {
  let i = k;
  if (['in', 'on', 'at', 'of', 'to', 'for', 'from'].includes(norm(s, i))) i++;
  while (['any', 'a', 'an', 'the', 'single'].includes(norm(s, i))) i++;
  const t = s.termAt.get(i);
  return t && t.start === i && !t.values.length && namesTable(t) ? t : null;
}

/** A verb the negation passes over to what it negates (`never attended any course`). */
function isVerb(s: LinkState, k: number): boolean {
  const t = s.tokens[k];
  return !!t && t.kind === 'word' && posAt(partsOfSpeech(s.text), t.start) === 'VERB';
}

/** Words between a column and its value: quotes, `is`, `by`, `the` (`not in the country 'Iceland'`, `not owned by CCTV`). */
const TO_THE_VALUE = new Set([
  '"',
  "'",
  '‘',
  '’',
  '“',
  '”',
  'is',
  'are',
  'by',
  'the',
  'a',
  'an',
  'named',
  'called',
  'as',
]);

/** `device` in `device dev-01`, `country` in `country "Russia"`: a column term before a value of that column. */
function columnBeforeItsValue(s: LinkState, t: TermLink): boolean {
  if (t.values.length) return false;
  let k = t.end;
  // A quote's norm is empty: its text says what it is.
  while (k < t.end + 3 && TO_THE_VALUE.has(norm(s, k) || (s.tokens[k]?.text ?? ''))) k++;
  const valueNext = s.termAt.get(k);
  return (
    !!valueNext &&
    valueNext.start === k &&
    valueNext.values.some((v) => t.columns.some((c) => c.table === v.table && c.column === v.column))
  );
}
