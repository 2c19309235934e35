import { ownKey, type ColumnInfo } from '../schema-index';
import { identifierWords, singular } from '../text';
import { namesAPerson } from './columns-of-columns';
import { doubt } from './lookup';
import type { ReadingRule, ReadingState } from './state';

/** Prepositions that put a person after a verb as its object (`report to`, `advised by`, `work under`). */
const OBJECT_PREPOSITIONS = new Set(['to', 'by', 'under']);

/** Words of a key column's name that are no role (`MANAGER_ID` → manager). */
const KEY_WORDS = new Set(['id', 'no', 'num', 'code', 'key']);

/**
 * `employees who report to Payam`, `students advised by Michael Goodrich`: a person's name said as
 * the object of a verb, matched in a name column of the rows being listed, while those rows hold a
 * number naming a person's role (`employees.MANAGER_ID`, `Student.Advisor`). The request most
 * likely means the rows related to that person through the role (a self-reference), not the
 * person's own row; a plan joins a table once, so the reading says so rather than answer with the
 * person's row.
 */
export const selfReferences: ReadingRule = {
  name: 'self-references',
  apply(s) {
    const src = s.source ? s.index.table(s.source) : undefined;
    if (!src || s.schema.streaming) return;
    const role = personRoleColumn(s, src.columns, ownKey(src, singular));
    if (!role) return;
    const tokens = s.links.tokens.map((t) => t.toLowerCase());
    for (const t of s.links.terms) {
      const v = t.values.find((x) => x.table === src.name && identifierWords(x.column).includes('name'));
      const before = tokens[t.start - 1] ?? '';
      const verb = tokens[t.start - 2] ?? '';
      if (!v || !OBJECT_PREPOSITIONS.has(before) || !/^[a-z]{3,}$/.test(verb)) continue;
      doubt(s, `"${t.text}" is said after "${verb} ${before}": the ${src.name} rows related to ${t.text} through ${src.name}.${role.column} may be meant, not ${t.text}'s own row`); // prettier-ignore
      return;
    }
  },
};

/** A number column of the rows, not their own key nor a declared key elsewhere, named for a person's role. */
function personRoleColumn(
  s: ReadingState,
  columns: readonly ColumnInfo[],
  own: ColumnInfo | undefined,
): ColumnInfo | null {
  const declared = new Set((s.schema.keys?.[s.source ?? '']?.foreignKeys ?? []).flatMap((fk) => fk.columns));
  for (const c of columns) {
    if (!c.numeric || c.temporal || c === own || declared.has(c.column) || c.path.length) continue;
    const words = identifierWords(c.column).filter((w) => !KEY_WORDS.has(w));
    const head = words.at(-1);
    if (words.length === 1 && head && namesAPerson(head)) return c;
  }
  return null;
}
