import { lemmaOf } from '../lexical/lemmas';
import { senses, synset } from '../lexical/wordnet';
import type { TermLink } from '../types';
import { doubt, isTableMention, ofTerm, resolve } from './lookup';
import type { ReadingRule, ReadingState } from './state';

/**
 * `the first name of Linda Smith's advisor`, `the name of the manager`: columns said of a word for a
 * person (WordNet's noun.person) that names a number column of the row (`Student.Advisor`), not a
 * table. A row's number has no first name: the word is a role, a reference to another row (a
 * faculty member, an employee), and what is said of it belongs to that row. Showing the row's own columns beside the reference would
 * answer another question, so the reading says so instead. A role the data declares as a key to
 * the other table is joined by `join` (role-keys) when said as that table; this reading catches
 * what no key reaches.
 */
export const columnsOfColumns: ReadingRule = {
  name: 'columns-of-columns',
  apply(s) {
    if (!s.source) return;
    for (const t of s.links.terms) {
      if (!s.used.has(t.id) || t.values.length) continue;
      const owner = ownerOf(s, t);
      if (!owner || owner.id === t.id) continue;
      const ref = roleColumn(s, owner);
      // `the number of employees` beside Num_Employees: one phrase naming one column, no reference.
      if (!ref || t.columns.some((c) => `${c.table}.${c.column}` === ref)) continue;
      doubt(s, `"${t.text}" is said of "${owner.text}", the number ${ref} holds: of the row it refers to, which no key of the data joins`); // prettier-ignore
      return;
    }
  },
};

/** What the term is said of: the term after `of`, or past a possessive value (`of Linda Smith's advisor`). */
function ownerOf(s: ReadingState, t: TermLink): TermLink | undefined {
  const after = ofTerm(s, t);
  if (!after?.values.length) return after;
  // `Linda Smith's`: the value terms up to the one ending in a possessive, then the noun it owns.
  let k = after;
  for (;;) {
    if (/['’]s$/i.test(k.text) || s.links.tokens[k.end]?.match(/^['’]s$/i)) {
      const at = /['’]s$/i.test(k.text) ? k.end : k.end + 1;
      return s.links.terms.find((o) => o.start === at && !o.values.length);
    }
    const next = s.links.terms.find((o) => o.start === k.end && o.values.length);
    if (!next) return undefined;
    k = next;
  }
}

/** WordNet's lexicographer file of people (`advisor`, `manager`, `host`): noun.person. */
const NOUN_PERSON = 18;

/** Whether a word's first sense as a noun (or its dictionary form's) is a person. */
export function namesAPerson(word: string): boolean {
  for (const form of [word, lemmaOf(word)]) {
    const first = senses(form, 'n')[0];
    if (first !== undefined) return synset('n', first).lexFile === NOUN_PERSON;
  }
  return false;
}

/**
 * The number column a term names in scope, as `table.column`, when the term names a person (a
 * role) and no table: `advisor` → Student.Advisor. A number said as a thing (`height`, `opening`),
 * or a word that names a table (`companies` beside `company_id`), is the row's own.
 */
function roleColumn(s: ReadingState, t: TermLink): string | null {
  const head =
    t.text
      .toLowerCase()
      .split(/\s+/)
      .pop()
      ?.replace(/['’]s$/, '') ?? '';
  if (t.tables.length || isTableMention(s, t) || !namesAPerson(head)) return null;
  const r = resolve(s, t);
  if (!r || !r.info.numeric || r.info.temporal || r.info.boolean) return null;
  return `${r.table}.${r.info.column}`;
}
