import type { ExtremePerGroup } from '@nl2p/query-plan';
import type { GroupLink, OrderLink } from '../types';
import { doubt, isTableMention, ref, term } from './lookup';
import { orderKey } from './order-limit';
import { isGrouped, type ReadingRule, type ReadingState } from './state';

/** Grouping cues that say "one answer in every group": `for each team`, `per category`, `in each city`. */
const EACH_CUES: ReadonlySet<string> = new Set([
  'per',
  'each',
  'every',
  'for each',
  'in each',
  'for every',
  'in every',
]);

/**
 * The rows holding their group's extreme: `for each team, the oldest player`, `the 3 most
 * expensive orders in each category`. A limit (said, or the one answer of `the X with the …`)
 * beside a cue that asks per group is a limit within each group, not over all of them; ranked by
 * a row's own value it is `extreme_per_group` (ties kept), and the rows are not grouped. Ranked
 * by something computed per group (`the customer with the most orders in each segment`) it
 * would need a rank over aggregates, which is not read: a doubt, never the one top row overall.
 */
export const groupExtremes: ReadingRule = {
  name: 'group-extremes',
  apply(s) {
    if (s.aggregates.length) return;
    const each = s.links.groups.filter((g) => EACH_CUES.has(g.cue));
    const limited = s.links.orders.find((o) => o.limit !== null);
    const ranked = s.links.orders.find((o) => o.limit === null && o.direction !== null);
    if (each.length && limited && ranked && s.groupKeys.length) perGroup(s, each, limited, ranked);
    else if (!limited && !isGrouped(s)) onlySuperlative(s);
  },
};

/** `for each team, the oldest player`: the limit holds within each group. */
function perGroup(s: ReadingState, each: GroupLink[], limited: OrderLink, ranked: OrderLink): void {
  const said = `${each.map((g) => g.text).join(', ')} … ${ranked.text}`;
  if (s.schema.streaming) return doubt(s, `"${said}" asks for a rank within each group, which veloFlux cannot run`);
  if (limited.offset) return doubt(s, `"${said}" asks for a rank within each group with an offset`);
  const keys = s.groupKeys;
  s.groupKeys = [];
  const by = rowValue(s, ranked);
  if (!by) {
    s.groupKeys = keys;
    return doubt(s, `"${said}" ranks by something computed in each group, which is not read`);
  }
  s.extreme = extremeOf(s, keys, by, ranked.direction, limited.limit ?? 1);
  s.readings.push(readingOf(each, ranked.text, s.extreme));
  // The noun after the limit was the group's (`the most expensive order in each category`): the rows are shown.
  if (each.some((g) => g.term === s.limitHead?.term.id)) s.limitHead = null;
}

/**
 * `the oldest technicians`, `the name of the youngest student`: a superlative with no number and
 * no sort said beside it singles out the rows holding the extreme (ties kept), rather than
 * sorting every row (a superlative has a limit). Only on a row's own value.
 */
function onlySuperlative(s: ReadingState): void {
  const orders = s.links.orders;
  const ranked = orders[0];
  if (orders.length !== 1 || !ranked?.superlative || s.schema.streaming) return;
  const by = rowValue(s, ranked);
  if (!by) return;
  s.extreme = extremeOf(s, [], by, ranked.direction, 1);
  s.readings.push(
    `"${ranked.text}" is read as the rows holding the ${s.extreme.extreme} of ${exprWords(by)}, ties kept`,
  );
}

/** The row's own value an order ranks by (a column, not a table's count or an aggregate). */
function rowValue(s: ReadingState, o: OrderLink): ExtremePerGroup['by'] | null {
  const byTerm = o.key && 'term' in o.key ? term(s, o.key.term) : undefined;
  if ((byTerm && isTableMention(s, byTerm)) || (o.key && 'aggregate' in o.key)) return null;
  const key = orderKey(s, o);
  return key?.kind === 'value' ? key.expr : null;
}

function exprWords(e: ExtremePerGroup['by']): string {
  return e.kind === 'column' ? e.ref.column : 'the value';
}

function extremeOf(
  s: ReadingState,
  keys: ReadingState['groupKeys'],
  by: ExtremePerGroup['by'],
  direction: 'asc' | 'desc' | null,
  count: number,
): ExtremePerGroup {
  return { per: keys.map((k) => ref(s, k)), by, extreme: direction === 'asc' ? 'min' : 'max', count };
}

function readingOf(each: GroupLink[], ranked: string, x: ExtremePerGroup): string {
  const rows = x.count === 1 ? 'the row' : `the ${x.count} rows`;
  return `"${ranked}" is read within "${each.map((g) => g.text).join(', ')}": ${rows} with the ${x.extreme} of each group, ties kept`;
}
