import {
  parseQueryPlan,
  type Aggregate,
  type ColumnRef,
  type Condition,
  type MeasureExpr,
  type Projection,
  type QueryPlan,
  type QueryPlanInput,
} from '@nl2p/query-plan';
import { planRefs } from '../plan-use';
import type { Links, PlanProposal, RatioLink, RatioSide } from '../types';

/** One side of a ratio read as a request of its own. */
export interface SideReading {
  side: RatioSide;
  request: string;
  links: Links;
  proposal: PlanProposal;
}

/** A side's plan taken apart: its one aggregate, where it sits, and the rest of what it shows. */
interface SidePlan {
  plan: QueryPlan;
  aggregate: Aggregate;
  at: number;
  rest: Projection[];
  conditions: Condition[];
}

/**
 * The two sides' plans as one: what both share (source, joins, groups, what else is shown, the
 * conditions both hold) said once, each side's own conditions filtering its aggregate, and the
 * aggregates divided. A string says why the sides do not fit together.
 */
export function combineSides(r: RatioLink, num: SideReading, den: SideReading): PlanProposal | string {
  const a = sidePlan(num);
  const b = sidePlan(den);
  if (typeof a === 'string' || typeof b === 'string') return typeof a === 'string' ? a : (b as string);
  // `the number of businesses in each state to the total number of businesses`: per group, over the whole.
  const ofWhole = isGrouped(a.plan) && !isGrouped(b.plan) && b.rest.length === 0;
  const apart = differs(
    a.plan,
    ofWhole ? { ...b.plan, group_by: a.plan.group_by, time_bucket: a.plan.time_bucket } : b.plan,
    a.rest,
    ofWhole ? a.rest : b.rest,
  );
  if (apart) return apart;
  const joins = unionJoins(a.plan, b.plan);
  if (typeof joins === 'string') return joins;
  const split = splitConditions(r, a.conditions, b.conditions);
  const whole = filtered(b.aggregate, split.denominator);
  const right: MeasureExpr = ofWhole && whole.kind === 'aggregate' ? { ...whole, all_groups: true } : whole;
  const ratio: MeasureExpr = { kind: 'arith', op: r.op, left: filtered(a.aggregate, split.numerator), right }; // prettier-ignore
  const expr: MeasureExpr = r.scale === 100 ? { kind: 'arith', op: '*', left: { kind: 'number', value: 100 }, right: ratio } : ratio; // prettier-ignore
  const select: Projection[] = [...a.plan.select];
  select[a.at] = { kind: 'measure', expr, alias: null };
  const plan: QueryPlanInput = { ...a.plan, joins, select, where: andOf(split.shared) };
  const idle = idleJoins(plan);
  if (idle.length)
    return `joins ${idle.join(', ')}, which no part of the ratio reads (a join may repeat the rows summed)`;
  return proposalOf(r, plan, num.proposal, den.proposal, split.movedColumns, ofWhole);
}

/**
 * Joined tables nothing of the plan reads, directly or as a bridge to a table it reads: joined
 * for a word of one side (`enrolled students`), they may repeat the rows each side adds up.
 */
function idleJoins(plan: QueryPlanInput): string[] {
  const columns = planRefs({ ...plan, joins: [] }).columns;
  const needed = new Set([plan.source, ...[...columns].map((c) => c.slice(0, c.lastIndexOf('.')))]);
  const joins = plan.joins ?? [];
  for (let i = joins.length - 1; i >= 0; i--) {
    const j = joins[i];
    if (j && needed.has(j.table)) for (const o of j.on) needed.add(o.left.table ?? plan.source);
  }
  return joins.filter((j) => !needed.has(j.table)).map((j) => j.table);
}

function sidePlan(s: SideReading): SidePlan | string {
  const p = s.proposal;
  if (!p.plan) return `"${s.side.text}" reads as no plan of its own`;
  const plan = parseQueryPlan(p.plan);
  const at = plan.select.findIndex((x) => x.kind === 'aggregate');
  const aggregates = plan.select.filter((x) => x.kind === 'aggregate' || x.kind === 'measure');
  const first = plan.select[at];
  if (aggregates.length !== 1 || first?.kind !== 'aggregate') return `"${s.side.text}" does not read as one figure`;
  const rest = plan.select.filter((_, i) => i !== at);
  return { plan, aggregate: first.aggregate, at, rest, conditions: conjuncts(plan.where) };
}

/** Why two side plans cannot share one SELECT: another source, other groups, or constructs a ratio does not combine. */
function differs(a: QueryPlan, b: QueryPlan, restA: Projection[], restB: Projection[]): string | null {
  const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
  if (a.source !== b.source) return `the sides read from ${a.source} and ${b.source}`;
  if (!same(restA, restB) || !same(a.group_by, b.group_by) || !same(a.time_bucket, b.time_bucket)) return 'the sides are grouped or shown differently';
  if ([a, b].some((p) => p.having.length || p.set_operations.length || p.extreme_per_group || p.window)) return 'a side holds what a ratio does not combine (HAVING, a set operation, ranked rows or a window)';
  return null;
} // prettier-ignore

function isGrouped(p: QueryPlan): boolean {
  return p.group_by.length > 0 || p.time_bucket !== null;
}

function unionJoins(a: QueryPlan, b: QueryPlan): QueryPlan['joins'] | string {
  const out = [...a.joins];
  for (const j of b.joins) {
    const mine = out.find((x) => x.table === j.table);
    if (!mine) out.push(j);
    else if (JSON.stringify(mine.on) !== JSON.stringify(j.on)) return `the sides join ${j.table} on different keys`;
  }
  return out;
}

interface SplitConditions {
  shared: Condition[];
  numerator: Condition[];
  denominator: Condition[];
  /** Columns of the denominator's conditions read as holding for both sides (said after it, or of the whole). */
  movedColumns: string[];
}

/**
 * Conditions both sides hold are the plan's WHERE; the others filter their side. A condition of
 * the denominator alone holds for both when the denominator is the whole (`out of all restaurants
 * in Los Angeles`), or when the sides contrast on some column and this one is on another, said
 * after the contrast (`vegan to non-vegan restaurants in San Francisco`). Sides that name
 * different things with nothing in common (`publications in conferences to publications in
 * journals`) keep each its own.
 */
function splitConditions(r: RatioLink, num: Condition[], den: Condition[]): SplitConditions {
  const key = (c: Condition) => JSON.stringify(c);
  const denKeys = new Set(den.map(key));
  const shared = num.filter((c) => denKeys.has(key(c)));
  const sharedKeys = new Set(shared.map(key));
  const ownNum = num.filter((c) => !sharedKeys.has(key(c)));
  const ownDen = den.filter((c) => !sharedKeys.has(key(c)));
  const numColumns = new Set(ownNum.flatMap(columnsOfCondition));
  const contrast = ownDen.some((c) => columnsOfCondition(c).some((x) => numColumns.has(x)));
  const context = (c: Condition) => r.whole || (contrast && !columnsOfCondition(c).some((x) => numColumns.has(x)));
  const moved = ownDen.filter(context);
  return {
    shared: [...shared, ...moved],
    numerator: ownNum,
    denominator: ownDen.filter((c) => !context(c)),
    movedColumns: [...new Set(moved.flatMap(columnsOfCondition))],
  };
}

function filtered(aggregate: Aggregate, conditions: Condition[]): MeasureExpr {
  const filter = andOf(conditions);
  return filter ? { kind: 'aggregate', aggregate, filter } : { kind: 'aggregate', aggregate };
}

function conjuncts(c: Condition | null): Condition[] {
  if (!c) return [];
  return c.kind === 'and' ? c.conditions : [c];
}

function andOf(conditions: Condition[]): Condition | null {
  if (conditions.length === 0) return null;
  return conditions.length === 1 ? (conditions[0] ?? null) : { kind: 'and', conditions };
}

/** The columns a condition reads (`table.column`), sub-plans aside. */
function columnsOfCondition(c: Condition): string[] {
  const name = (r: ColumnRef) => `${r.table ?? ''}.${r.column}`;
  switch (c.kind) {
    case 'compare':
      return c.left.kind === 'column' ? [name(c.left.ref)] : [];
    case 'in':
    case 'between':
    case 'text':
    case 'null':
      return [name(c.column)];
    case 'and':
    case 'or':
      return c.conditions.flatMap(columnsOfCondition);
    case 'not':
      return columnsOfCondition(c.condition);
    default:
      return [];
  }
}

/** The composed proposal: trusted only as far as both sides' readings are. */
function proposalOf(r: RatioLink, plan: QueryPlanInput, num: PlanProposal, den: PlanProposal, moved: string[], ofWhole: boolean): PlanProposal {
  const unique = <T>(xs: T[], key: (x: T) => string = (x) => JSON.stringify(x)) => [...new Map(xs.map((x) => [key(x), x])).values()];
  const both = (f: (p: PlanProposal) => string[]) => unique([...f(num), ...f(den)]);
  const whole = ofWhole ? ' (all groups together)' : '';
  const said = `"${r.text}" is read as ${r.scale === 100 ? 'a percentage: 100 times ' : ''}"${r.numerator.text}" ${r.op === '-' ? 'minus' : 'divided by'} "${r.denominator.text}"${whole}`;
  const context = moved.length ? [`the condition on ${moved.map((m) => m.replace(/^\./, '')).join(', ')} is read as holding for both sides of the ratio`] : [];
  return {
    ...num,
    plan,
    unknown: both((p) => p.unknown),
    ambiguous: unique([...num.ambiguous, ...den.ambiguous], (a) => a.phrase),
    confidence: num.confidence === 'high' && den.confidence === 'high' ? 'high' : 'partial',
    doubts: both((p) => p.doubts),
    readings: [...both((p) => p.readings), said, ...context],
  };
} // prettier-ignore
