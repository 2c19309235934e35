import type { PlannedSql, WindowSpec } from './fake-sql';

interface PlanNode {
  op: string;
  info: string;
}

/**
 * Renders an explain body in the shape of `GET /pipelines/:id/explain` (CONTRACT §5.7): two
 * tables, root first, node ids numbered from the source up. Close to, not byte-equal with, the
 * engine's output.
 */
export function renderExplain(
  plan: PlannedSql,
  stream: string,
  sinkId: string,
  connector: string,
  sinkCount: number,
): string {
  const schema = `schema=[${plan.schema.join(', ')}]`;
  const fields = `fields=[${plan.fields.join(', ')}]`;
  const aggregated = plan.aggregates.length > 0;
  const groupBy = `group_by=[${plan.groupKeys.join(', ')}]`;
  const win = plan.window ? windowInfo(plan.window) : null;

  const logical: PlanNode[] = [
    { op: 'Tail', info: `sink_count=${sinkCount}` },
    { op: 'DataSink', info: `sink_id=${sinkId}, connector=${connector}, encoder=json` },
    { op: 'Project', info: fields },
  ];
  // The real engine plans a WHERE beside an aggregation or window ABOVE it: it filters the
  // aggregated rows, once per window (recorded: pipeline_explain_validate_nop). Without either,
  // the filter sits on the source rows.
  const filter = plan.predicate ? { op: 'Filter', info: `predicate=${plan.predicate}` } : null;
  if (filter && (aggregated || win)) logical.push(filter);
  if (aggregated) logical.push({ op: 'Aggregation', info: `aggregates=[${plan.aggregates.join(', ')}], ${groupBy}` });
  if (win) logical.push({ op: 'Window', info: `kind=${win}` });
  if (filter && !aggregated && !win) logical.push(filter);
  logical.push({ op: 'DataSource', info: `source=${stream}, decoder=json, ${schema}` });

  const physical: PlanNode[] = [
    { op: 'PhysicalResultCollect', info: '' },
    { op: 'PhysicalDataSink', info: `sink_id=${sinkId}, connector=${connector}` },
    { op: 'PhysicalEncoder', info: `sink_id=${sinkId}, encoder=json` },
    { op: 'PhysicalProject', info: fields },
  ];
  if (plan.predicate) physical.push({ op: 'PhysicalFilter', info: `predicate=${plan.predicate}` });
  if (aggregated) {
    const calls = `calls=[${plan.aggregates.join(', ')}], ${groupBy}`;
    physical.push(
      win
        ? { op: 'PhysicalStreamingAggregation', info: `${calls}, window=${win}` }
        : { op: 'PhysicalAggregation', info: calls },
    );
  } else if (win) {
    physical.push({ op: 'PhysicalWindow', info: `window=${win}` });
  }
  const timed = plan.window && (plan.window.kind === 'tumbling' || plan.window.kind === 'sliding');
  if (timed && plan.window) {
    const interval = plan.window.kind === 'tumbling' ? plan.window.args[1] : '1';
    physical.push({
      op: 'PhysicalProcessTimeWatermark',
      info: `window=${win}, mode=processing_time, interval=${interval}`,
    });
  }
  physical.push({ op: 'PhysicalDecoder', info: `decoder=json, ${schema}` });
  physical.push({ op: 'PhysicalDataSource', info: `source=${stream}, ${schema}` });

  return `Logical Plan Explain:\n${table(logical)}\n\nPhysical Plan Explain:\n${table(physical)}`;
}

function windowInfo(w: WindowSpec): string {
  switch (w.kind) {
    case 'tumbling':
      return `tumbling, unit=Seconds, length=${w.args[1] ?? ''}`;
    case 'sliding':
      return `sliding, unit=Seconds, lookback=${w.args[1] ?? ''}, lookahead=${w.args[2] ?? 'none'}`;
    case 'count':
      return `count, count=${w.args[0] ?? ''}`;
    case 'state': {
      const partition = w.partition.length ? `, partition_by=[${w.partition.join(', ')}]` : '';
      return `state, open=${w.args[0] ?? ''}, emit=${w.args[1] ?? ''}${partition}`;
    }
  }
}

/** A single chain: each node is the only child of the one above it. */
function table(chain: PlanNode[]): string {
  const count = chain.length;
  const ids = chain.map(
    (node, depth) => `${depth === 0 ? '' : `${'  '.repeat(depth - 1)}└─`}${node.op}_${count - 1 - depth}`,
  );
  const idWidth = Math.max(2, ...ids.map((s) => s.length)) + 4;
  const infoWidth = Math.max(4, ...chain.map((n) => n.info.length));
  const rows = [`- ${'id'.padEnd(idWidth)} | ${'info'.padEnd(infoWidth)}`];
  chain.forEach((node, i) => rows.push(`  ${ids[i].padEnd(idWidth)} | ${node.info.padEnd(infoWidth)}`));
  return rows.join('\n');
}
