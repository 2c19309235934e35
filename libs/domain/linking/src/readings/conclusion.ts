import type { Condition, QueryPlanInput } from '@nl2p/query-plan';
import type { PlanProposal, PlanSlots } from '../types';
import { isTableMention, ref } from './lookup';
import { exceptions } from './except-rows';
import { slotsOf } from './slots';
import type { ReadingState } from './state';

function joinsOf(s: ReadingState): NonNullable<QueryPlanInput['joins']> {
  const source = s.source ?? '';
  return [...s.joins].map(([table, key]) => ({
    table,
    kind: 'inner' as const,
    on: [{ left: { table: key.from ?? source, column: key.left }, right: { table, column: key.right } }],
  }));
}

/** The proposal once every reading ran: the plan, the slots, and how far the plan can be trusted. */
export function conclusion(s: ReadingState): PlanProposal {
  const L = s.links;
  const source = s.source ?? '';
  const conditions = s.conditions;
  const where: Condition | null =
    conditions.length === 0 ? null : conditions.length === 1 ? (conditions[0] ?? null) : { kind: 'and', conditions };
  const plan: QueryPlanInput = {
    source,
    joins: joinsOf(s),
    select: s.select,
    distinct: s.distinct,
    where,
    group_by: s.groupKeys.map((k) => ref(s, k)),
    time_bucket: s.timeBucket,
    window: s.window,
    having: s.having,
    order_by: s.orderBy,
    limit: s.limit,
    offset: s.offset,
    extreme_per_group: s.extreme,
    set_operations: [...(intersections(s, where) ?? []), ...exceptions(s)],
  };
  const slots = slotsOf(s, where);
  // "show all devices": naming the table is asking for its rows.
  const tableNamed = L.terms.some((t) => isTableMention(s, t) === source && t.projected);
  const nothingAsked =
    !s.select.length && !where && !s.aggregates.length && !s.orderBy.length && !s.limit && !s.extreme && !tableNamed;
  const unknown = s.unknown;
  const conclusive = !s.tied && !unknown.length && !s.ambiguous.length && !s.doubts.length && !nothingAsked;
  // A plan that asks nothing, or that had to guess around words naming nothing, is no plan.
  const usable = !s.tied && !nothingAsked && !(unknown.length && s.doubts.length);
  return {
    table: s.tied ? null : source,
    tableCandidates: s.ranked,
    plan: usable ? plan : null,
    slots,
    unknown,
    ambiguous: s.ambiguous,
    confidence: conclusive ? 'high' : 'partial',
    doubts: [...s.doubts],
    readings: [...s.readings],
  };
}

/**
 * `both A and B`: the same plan once per other value, each intersected with the first. Only what
 * is shown is compared, so the others carry no order or limit (the first's apply to the whole).
 */
function intersections(s: ReadingState, where: Condition | null): QueryPlanInput['set_operations'] {
  const both = s.intersect;
  if (!both || !where) return [];
  return both.others.map((other) => {
    const conditions = s.conditions.map((c) => (c === both.first ? other : c));
    return {
      op: 'intersect' as const,
      plan: {
        source: s.source ?? '',
        joins: joinsOf(s),
        select: s.select,
        where: conditions.length === 1 ? (conditions[0] ?? null) : { kind: 'and' as const, conditions },
        group_by: s.groupKeys.map((k) => ref(s, k)),
        having: s.having,
      },
    };
  });
} // prettier-ignore

/** No proposal: nothing in the request names data, so there is no table and no plan. */
export function noProposal(s: ReadingState): PlanProposal {
  const empty: PlanSlots = {
    tables: s.ranked,
    columns: [],
    aggregates: [],
    groupBy: [],
    filters: [],
    time: null,
    order: null,
    limit: null,
  };
  return {
    table: null,
    tableCandidates: s.ranked,
    plan: null,
    slots: empty,
    unknown: s.unknown,
    ambiguous: [],
    confidence: 'none',
    doubts: [],
    readings: [],
  };
}
