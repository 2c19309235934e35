import { scansOf, type ExecutionDag, type ScanNode } from '@nl2p/execution-dag';

/**
 * Which keys a join is judged on. A part carries the request's filters, pushed down to its
 * source, so two filtered parts can share few keys for the right reason: returned orders and
 * customers in Italy have no pair because no Italian customer returned an order (the answer is 0),
 * not because the keys are spelled apart. So the key rule and the match share are judged on each
 * joined table's keys as its source holds them, unfiltered: for every filtered part a join reads
 * keys from, a second scan of the same table reading only those key columns, distinct, with no
 * filter (run on the source with the part limits; one past the row limit is not used, and the part
 * is judged on its own keys). An unfiltered part is its own table's keys already.
 */
export function keyScansOf(dag: ExecutionDag): ScanNode[] {
  const keys = joinKeyColumns(dag);
  return scansOf(dag).flatMap((scan) => {
    const columns = keys.get(scan.id);
    if (!scan.plan.where || !columns?.size) return [];
    const select = scan.plan.select.filter((item) => item.alias !== null && columns.has(item.alias));
    if (select.length !== columns.size) return [];
    const plan = { ...scan.plan, select, where: null, distinct: true, group_by: [], having: [], order_by: [], limit: null, offset: 0 }; // prettier-ignore
    return [{ ...scan, id: `${scan.id}_keys`, plan, outputs: scan.outputs.filter((o) => columns.has(o.name)) }];
  });
}

/** The id a key scan's rows are found under: its part's id. */
export function partOfKeyScan(id: string): string {
  return id.replace(/_keys$/, '');
}

/** Scan id → the output columns joins read as keys. */
function joinKeyColumns(dag: ExecutionDag): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (table: string | null | undefined, column: string) => {
    if (table) out.set(table, (out.get(table) ?? new Set()).add(column));
  };
  for (const node of dag.nodes) {
    if (node.kind !== 'combine') continue;
    for (const join of node.joins) {
      for (const pair of join.on) {
        add(pair.left.table, pair.left.column);
        add(pair.right.table ?? join.table, pair.right.column);
      }
    }
  }
  return out;
}
