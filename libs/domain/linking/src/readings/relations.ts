import { findJoinPath } from '@nl2p/query-plan';
import type { RelationLink, TermLink } from '../types';
import { keyedTables } from './join-key';
import { doubt, isTableMention, term } from './lookup';
import type { ReadingRule, ReadingState } from './state';

/**
 * The verbs that relate two things said (`authors associated with domains`): each must be the one
 * way the data relates them, which the plan then realises (the join, or the row holding the value).
 * A verb between tables the data relates in several equally short ways may be choosing one of
 * them (`cited` or `wrote`), and between tables it does not relate at all, it says something the
 * data cannot: both are doubts. Read on SQL targets after the joins, with the scope known.
 */
export const relations: ReadingRule = {
  name: 'relations',
  apply(s) {
    for (const r of s.links.relations) {
      const subject = tableOf(s, term(s, r.subject));
      const object = r.object === null ? null : tableOf(s, term(s, r.object));
      const why = object === null || subject === null ? null : unrelated(s, subject, object);
      if (why) doubt(s, `"${r.text}" relates ${subject} and ${object}, but ${why}`);
      else if (subject && object && subject !== object) s.readings.push(relationReading(r, subject, object));
    }
  },
};

/** The table a term stands for in the plan: the table it names, else the one holding its value or column. */
function tableOf(s: ReadingState, t: TermLink | undefined): string | null {
  if (!t) return null;
  const named = isTableMention(s, t);
  if (named) return named;
  const inScope = (x: { table: string }) => s.scope.includes(x.table);
  return (
    t.values.find(inScope)?.table ?? t.columns.find(inScope)?.table ?? t.values[0]?.table ?? t.columns[0]?.table ?? null
  );
}

/** Why the data does not relate two tables in exactly one way, or null when it does. */
function unrelated(s: ReadingState, a: string, b: string): string | null {
  if (a === b) return null;
  if (s.schema.streaming) return 'a stream is not joined';
  const path = findJoinPath(keyedTables(s.schema), a, [b]);
  if (!path) return 'the data has no join between them';
  if (path.assumption) return 'the data relates them in more than one way';
  return null;
}

function relationReading(r: RelationLink, a: string, b: string): string {
  return `"${r.text}" is read as what relates ${a} and ${b} in the data`;
}
