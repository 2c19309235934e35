import type { QueryPlan } from '@nl2p/query-plan';

/** How every sentence about WHERE beside a window begins (the review below finds them by it). */
const LEAD = 'On veloFlux a WHERE beside a window is applied after the aggregation, once per window';

/** What the compiler tells the person about WHERE beside a window, until the plan confirms it. */
export const WHERE_AFTER_WINDOW = `${LEAD}: the aggregates cover every row of the window, and a window is emitted only when the condition holds for the row it is evaluated on. It does not drop single rows before they are aggregated.`;

/** The same, naming the condition as compiled (`temperature > 0`). */
export function whereAfterWindow(condition: string): string {
  return `${LEAD}: a window's result is emitted only when ${condition} holds for the row it is evaluated on, and its aggregates still cover every row of the window, including rows where ${condition} does not hold. It does not drop single rows before they are aggregated.`;
}

/**
 * What the compiler tells the person when it wrote a row condition into a window's aggregates
 * instead of WHERE (plan-sql.ts, `rowConditionsInAggregates`).
 */
export function conditionInAggregates(condition: string): string {
  return `veloFlux would apply a WHERE beside a window after aggregating, so ${condition} is applied to each row inside the aggregates instead (CASE WHEN … END), and a window in which no row meets it emits nothing.`;
}

/**
 * Checks the engine's own plan before the person sees the assumption (issue 14): in the logical
 * plan a node printed above another consumes its output, so `Filter_*` above `Aggregation_*`
 * means the filter runs after aggregating. When the plan says otherwise, the assumption is
 * replaced by what the plan shows; when it says nothing either way, it stays as compiled.
 */
export function reviewWhereSemantics(plan: QueryPlan | null, explain: string, assumptions: string[]): string[] {
  if (!plan?.where || !plan.window) return assumptions;
  const logical = explain.split(/Physical Plan Explain:/)[0] ?? '';
  const lines = logical.split('\n');
  const filter = lines.findIndex((l) => /\bFilter_\d+/.test(l));
  const aggregation = lines.findIndex((l) => /\bAggregation_\d+/.test(l));
  if (filter < 0 || aggregation < 0) return assumptions;
  const ours = assumptions.filter((a) => a.startsWith(LEAD));
  const rest = assumptions.filter((a) => !a.startsWith(LEAD));
  // A compiled plan states it whenever its SQL keeps the WHERE; a plan whose condition went into
  // the aggregates has no WHERE to speak of (its Filter is the HAVING).
  if (!ours.length && lines[aggregation]?.includes('CASE WHEN')) return assumptions;
  const stated = ours.length ? ours : [WHERE_AFTER_WINDOW];
  return filter < aggregation
    ? [...rest, ...stated.map((a) => `${a} (The engine's plan shows it: Filter above Aggregation.)`)]
    : [...rest, "The engine's plan filters rows before aggregating them (Filter below Aggregation)."];
}
