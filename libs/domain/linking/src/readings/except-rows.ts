import type { Condition, QueryPlanInput } from '@nl2p/query-plan';
import { isTableMention } from './lookup';
import type { ReadingRule, ReadingState } from './state';

/**
 * `home cities except for those having a driver older than 40`, `countries that do not have a
 * stadium with a capacity above 60000`: what is shown of the source's rows, less what is shown of
 * the rows the negation describes (EXCEPT). The rows said absent are the source's own, so no
 * NOT EXISTS can say it: a city with one young and one old driver is left out, which a `NOT`
 * on each row would keep. Read only when everything said after the negated noun became a
 * comparison (which knows where it was said) and nothing is computed; otherwise the negation
 * stays unplaced and absent-conditions doubts it. A stream runs no set operation: said so.
 */
export const exceptRows: ReadingRule = {
  name: 'except-rows',
  apply(s) {
    const source = s.source;
    const said = s.links.terms.find((t) => t.negated && !t.values.length && isTableMention(s, t) === source);
    if (!source || !said || s.intersect || s.excepted || !plainRows(s)) return;
    const after = [...s.comparedBy].flatMap(([c, condition]) =>
      c.start > said.start && s.conditions.includes(condition) ? [condition] : [],
    );
    if (!after.length) return;
    if (s.schema.streaming) {
      s.doubts.push(`"${said.text}" takes rows away from the answer (EXCEPT), which a stream cannot run`);
      return;
    }
    s.conditions = s.conditions.filter((c) => !after.includes(c));
    s.excepted = after;
    s.readings.push(`"${said.text}" with what is said after it is taken away from the answer (EXCEPT)`);
  },
};

/**
 * Rows of the source shown as they are: no join (programs read from their broadcasts would lose
 * the programs with none), no aggregate, grouping, order or limit that an EXCEPT would change.
 */
function plainRows(s: ReadingState): boolean {
  return (
    s.select.length > 0 &&
    s.joins.size === 0 &&
    !s.aggregates.length &&
    !s.groupKeys.length &&
    !s.having.length &&
    !s.orderBy.length &&
    s.limit === null &&
    !s.extreme
  );
}

/** The EXCEPT the plan ends with: the same rows shown, of the rows the negation describes. */
export function exceptions(s: ReadingState): NonNullable<QueryPlanInput['set_operations']> {
  const taken = s.excepted;
  if (!taken?.length) return [];
  const conditions: Condition[] = taken;
  return [
    {
      op: 'except',
      plan: {
        source: s.source ?? '',
        select: s.select,
        where: conditions.length === 1 ? (conditions[0] ?? null) : { kind: 'and', conditions },
      },
    },
  ];
}
