import type { VelofluxRule } from '../rule';

/**
 * GROUP BY keys without a window or an aggregate: the planner refuses it. Needs the catalog to say
 * which functions aggregate.
 */
export const groupByNeedsAggregate: VelofluxRule = {
  id: 'group-by-needs-aggregate',
  check(q, out) {
    if (q.catalog.aggregates.size === 0 || q.hasAggregate || !q.contentRange('group')) return;
    if (q.groupWindows.length > 0) return;
    out.error(
      "GROUP BY without aggregate functions is not supported by veloFlux; aggregate the other columns (e.g. count(*), avg(x)) or remove GROUP BY (a window alone, GROUP BY tumblingwindow('ss', 10), is allowed)",
    );
  },
};
