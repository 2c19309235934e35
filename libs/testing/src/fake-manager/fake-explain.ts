import type { PlannedSql, WindowSpec } from './fake-sql';

/** What explain needs to know about one sink of the pipeline. */
export interface ExplainSink {
  id: string;
  connector: string;
  encoder: string;
  omitIfEmpty: boolean;
  outputMode: string | null;
  batching: boolean;
}

export interface PlanNode {
  op: string;
  id: number;
  info: string;
  children: PlanNode[];
}

/**
 * `GET /pipelines/:id/explain` (CONTRACT §5.7) rendered as the engine renders it, matched byte
 * for byte against the recorded explains: node ids numbered in build order from the source up
 * (optimizer-added logical nodes such as `Compute` numbered last), `;`-separated lists, the
 * encoder reading plain columns straight from the source row (`by_index_projection`) while the
 * project keeps only computed fields (`passthrough_messages=true`), one subtree per sink.
 */
export function renderExplain(plan: PlannedSql, sinks: ExplainSink[]): string {
  return `Logical Plan Explain:\n${table(logicalPlan(plan, sinks))}\n\nPhysical Plan Explain:\n${table(physicalPlan(plan, sinks))}`;
}

/** Processor ids of the physical plan, as stats reports them (ResultCollect left out). */
export function physicalProcessorIds(plan: PlannedSql, sinks: ExplainSink[]): string[] {
  const out: string[] = [];
  const seen = new Set<number>();
  const walk = (node: PlanNode, sinkId: string | null): void => {
    const sink =
      node.op === 'PhysicalDataSink'
        ? (sinks.find((s) => node.info.startsWith(`sink_id=${s.id},`))?.id ?? null)
        : sinkId;
    for (const child of node.children) walk(child, sink);
    if (seen.has(node.id) || node.op === 'PhysicalResultCollect') return;
    seen.add(node.id);
    out.push(node.op === 'PhysicalDataSink' ? `${node.op}_${node.id}_${sink}` : `${node.op}_${node.id}`);
  };
  walk(physicalPlan(plan, sinks), null);
  return out.sort((a, b) => Number(/_(\d+)/.exec(a)?.[1]) - Number(/_(\d+)/.exec(b)?.[1]));
}

const list = (items: string[]): string => `[${items.join('; ')}]`;

function sourceInfo(plan: PlannedSql, decoder: boolean): string {
  const alias = plan.alias ? `, alias=${plan.alias}` : '';
  return `source=${plan.stream}${alias}${decoder ? ', decoder=json' : ''}, schema=[${plan.schema.join(', ')}]`;
}

function aggregationInfo(plan: PlannedSql, key: string): string {
  const group = plan.groupKeys.length ? `, group_by=${list(plan.groupKeys)}` : '';
  return `${key}=${list(plan.aggregates)}${group}`;
}

function logicalPlan(plan: PlannedSql, sinks: ExplainSink[]): PlanNode {
  let next = 0;
  const node = (op: string, info: string, child?: PlanNode): PlanNode => ({
    op,
    id: next++,
    info,
    children: child ? [child] : [],
  });
  let top = node('DataSource', sourceInfo(plan, true));
  const bottom = top;
  if (plan.stateful.length) top = node('StatefulFunction', `calls=${list(plan.stateful)}`, top);
  if (plan.window) top = node('Window', `kind=${windowInfo(plan.window)}`, top);
  if (plan.aggregates.length) top = node('Aggregation', aggregationInfo(plan, 'aggregates'), top);
  const filters: PlanNode[] = [];
  for (const predicate of plan.filters) {
    top = node('Filter', `predicate=${predicate}`, top);
    filters.push(top);
  }
  if (plan.order.length) top = node('Order', `keys=${list(plan.order)}`, top);
  const project = node('Project', `fields=${list(plan.fields)}`, top);
  const sinkNodes = sinks.map((s) => node('DataSink', logicalSinkInfo(s), project));
  const tail: PlanNode = { op: 'Tail', id: next++, info: `sink_count=${sinks.length}`, children: sinkNodes };
  if (plan.computes.length) {
    // Added by the optimizer, so numbered after everything else, right under the first filter.
    const compute = node('Compute', `temps=${list(plan.computes)}`, bottom);
    const above = filters[0] ?? project;
    above.children = above.children.map((c) => (c === bottom ? compute : c));
  }
  return tail;
}

function logicalSinkInfo(s: ExplainSink): string {
  let info = `sink_id=${s.id}, connector=${s.connector}, encoder=${s.encoder}`;
  if (s.outputMode === 'delta') info += ', output.mode=delta';
  if (s.omitIfEmpty) info += ', output.omit_if_empty=true';
  if (s.batching) info += ', batching=true';
  return info;
}

function physicalPlan(plan: PlannedSql, sinks: ExplainSink[]): PlanNode {
  let next = 0;
  const node = (op: string, info: string, child?: PlanNode): PlanNode => ({
    op,
    id: next++,
    info,
    children: child ? [child] : [],
  });
  const schema = `schema=[${plan.schema.join(', ')}]`;
  let top = node('PhysicalDataSource', sourceInfo(plan, false));
  top = node('PhysicalDecoder', `decoder=json, ${schema}`, top);
  if (plan.computes.length) top = node('PhysicalCompute', `temps=${list(plan.computes)}`, top);
  if (plan.stateful.length) top = node('PhysicalStatefulFunction', `calls=${list(plan.stateful)}`, top);
  const win = plan.window ? windowInfo(plan.window) : null;
  if (plan.window && win) {
    const timed = plan.window.kind === 'tumbling' || plan.window.kind === 'sliding';
    if (timed) {
      const interval = plan.window.kind === 'tumbling' ? plan.window.args[1] : '1';
      top = node('PhysicalProcessTimeWatermark', `window=${win}, mode=processing_time, interval=${interval}`, top);
    }
    if (plan.aggregates.length) {
      next += 1; // the window's own id, fused into the aggregation
      top = node('PhysicalStreamingAggregation', `${aggregationInfo(plan, 'calls')}, window=${win}`, top);
    } else {
      const op = `Physical${plan.window.kind[0].toUpperCase()}${plan.window.kind.slice(1)}Window`;
      top = node(op, `kind=${win}`, top);
    }
  } else if (plan.aggregates.length) {
    top = node('PhysicalAggregation', aggregationInfo(plan, 'calls'), top);
  }
  for (const predicate of plan.filters) top = node('PhysicalFilter', `predicate=${predicate}`, top);
  if (plan.order.length) top = node('PhysicalOrder', `keys=${list(plan.order)}`, top);
  const passthrough = plan.passthrough.length > 0;
  const fields = passthrough ? plan.physicalFields : plan.fields;
  const project = node(
    'PhysicalProject',
    `fields=${list(fields)}${passthrough ? ', passthrough_messages=true' : ''}`,
    top,
  );
  const projection = passthrough
    ? `, by_index_projection=${list(plan.passthrough.map(([i, name]) => `${plan.stream}#${i}->${name}`))}`
    : '';
  const sinkNodes = sinks.map((s) => {
    const sink = node('PhysicalDataSink', `sink_id=${s.id}, connector=${s.connector}`);
    let below = project;
    if (s.omitIfEmpty) below = node('PhysicalEmptySuppress', `sink_id=${s.id}, omit_if_empty=true`, below);
    if (s.batching) next += 1; // the batcher, fused into the streaming encoder
    const op = s.batching ? 'PhysicalStreamingEncoder' : 'PhysicalEncoder';
    const batching = s.batching ? ', batching=true' : '';
    sink.children = [node(op, `sink_id=${s.id}, encoder=${s.encoder}${batching}${projection}`, below)];
    return sink;
  });
  const collect: PlanNode = { op: 'PhysicalResultCollect', id: next++, info: '', children: [] };
  if (sinkNodes.length === 1) {
    collect.children = sinkNodes;
  } else {
    collect.children = [
      { op: 'PhysicalBarrier', id: next++, info: `upstream_count=${sinkNodes.length}`, children: sinkNodes },
    ];
  }
  return collect;
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
      const partition = w.partition.length ? `, partition_by=${list(w.partition)}` : '';
      return `state, open=${w.args[0] ?? ''}, emit=${w.args[1] ?? ''}${partition}`;
    }
  }
}

/**
 * The engine's `table_string()`: root first, depth first; widths measured in UTF-8 bytes but
 * padded in chars, so rows with box-drawing characters come out misaligned.
 */
function table(root: PlanNode): string {
  const rows: [string, string][] = [];
  const walk = (n: PlanNode, prefix: string, childIndent: string): void => {
    rows.push([`${prefix}${n.op}_${n.id}`, n.info]);
    n.children.forEach((c, i) => {
      const last = i === n.children.length - 1;
      walk(c, `${childIndent}${last ? '└─' : '├─'}`, `${childIndent}${last ? '  ' : '│ '}`);
    });
  };
  walk(root, '', '');
  const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
  const idWidth = Math.max(bytes('id'), ...rows.map(([id]) => bytes(id)));
  const infoWidth = Math.max(bytes('info'), ...rows.map(([, info]) => bytes(info)));
  const pad = (s: string, width: number): string => s + ' '.repeat(Math.max(0, width - [...s].length));
  const lines = [`- ${pad('id', idWidth)} | ${pad('info', infoWidth)}`];
  for (const [id, info] of rows) lines.push(`  ${pad(id, idWidth)} | ${pad(info, infoWidth)}`);
  return lines.join('\n');
}
