/**
 * What a veloFlux item is judged by: the engine's own logical plan of the accepted SQL against its
 * plan of the reference SQL (issue 15: the engine's answer on both sides, not a list of features
 * that `SELECT *` satisfies by having none). Two plans are the same query when their operators,
 * windows, predicates, grouping, aggregates and output expressions are the same, whatever the
 * aliases, the order of the output columns, the operator ids or the sink.
 *
 * Known limit: the comparison is textual below that level, so `30 < temperature` and
 * `temperature > 30` differ; the report shows the first differing line for a person to judge.
 */

/** One operator of the logical plan: its kind (`Filter`, `Window`, …) and normalized details. */
export interface PlanStep {
  op: string;
  info: string;
}

/** Operators that say where the rows go, not what the query computes. */
const SINK_OPERATORS = new Set(['Tail', 'DataSink']);

/** The logical plan of an explain text as comparable steps, top (output) to bottom (source). */
export function logicalPlanShape(explain: string): PlanStep[] {
  const logical = explain.split('Physical Plan Explain:')[0] ?? '';
  const rows = logical
    .split('\n')
    .map((line) => /^[\s│├└─]*([A-Za-z]+)_\d+\s*\|\s*(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ op: m[1] ?? '', info: (m[2] ?? '').trim() }))
    .filter((s) => !SINK_OPERATORS.has(s.op));
  // With several sinks the tree repeats the query under each; the first branch is the query.
  const source = rows.findIndex((s) => s.op === 'DataSource');
  if (source >= 0) rows.splice(source + 1);
  // `aggregates=[avg(temperature) -> col_1]`: the engine numbers aggregates in the order the
  // SELECT names them and other steps refer to them by that number, so each number becomes its
  // expression and the order of the SELECT stops mattering.
  const aggregates = new Map<string, string>();
  for (const step of rows) {
    const list = /aggregates=\[(.*?)\](?:,|$)/.exec(step.info)?.[1] ?? '';
    for (const member of splitTopLevel(list, ';')) {
      const arrow = /^(.*) -> (col_\d+)$/.exec(member.trim());
      if (arrow) aggregates.set(arrow[2] ?? '', (arrow[1] ?? '').trim());
    }
  }
  // `Compute | temps=[__vf_cse_1 = location -> lat]`: the planner computes an expression used
  // twice once, under a temp name; an optimisation, not part of what the query means.
  const temps = new Map<string, string>();
  for (const step of rows.filter((s) => s.op === 'Compute')) {
    const list = /temps=\[(.*)\]/.exec(step.info)?.[1] ?? '';
    for (const member of splitTopLevel(list, ';')) {
      const assignment = /^\s*(\S+) = (.*)$/.exec(member);
      if (assignment) temps.set(assignment[1] ?? '', (assignment[2] ?? '').trim());
    }
  }
  const named = (text: string) =>
    text
      .replace(/\s*->\s*col_\d+\b/g, '')
      .replace(/\bcol_\d+\b/g, (c) => aggregates.get(c) ?? c)
      .replace(/\b__vf_cse_\d+\b/g, (t) => temps.get(t) ?? t)
      // `(location -> lat)`: the parentheses a field access needs in some positions mean nothing.
      .replace(/\((\w+ -> \w+)\)/g, '$1');
  return rows
    .filter((step) => step.op !== 'Compute')
    .map((step) => ({ op: step.op, info: normalizeInfo(named(step.info)) }));
}

/** Lower case, aliases dropped, list members sorted, the source's own column list ignored. */
function normalizeInfo(info: string): string {
  return splitTopLevel(info, ',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => !part.startsWith('schema=') && !part.startsWith('decoder='))
    .map((part) => {
      const list = /^(\w+)=\[(.*)\]$/.exec(part);
      if (!list) return part;
      // The engine separates list members with `;` (commas belong to calls inside them).
      const members = splitTopLevel(list[2] ?? '', ';')
        .map((m) => m.trim().replace(/\s+as\s+\S+$/, ''))
        .sort();
      return `${list[1]}=[${members.join('; ')}]`;
    })
    .join(', ');
}

/** Splits on `separator` outside brackets and parentheses. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(' || ch === '[') depth += 1;
    if (ch === ')' || ch === ']') depth -= 1;
    if (ch === separator && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  if (current.trim()) parts.push(current);
  return parts;
}

/** `null` when both plans compute the same thing, else the first difference, in words. */
export function planDifference(candidate: string, reference: string): string | null {
  const ours = logicalPlanShape(candidate);
  const theirs = logicalPlanShape(reference);
  if (!ours.length) return 'the accepted SQL has no logical plan in its explain';
  if (!theirs.length) return 'the reference has no logical plan in its explain';
  for (let i = 0; i < Math.max(ours.length, theirs.length); i++) {
    const a = ours[i];
    const b = theirs[i];
    if (a?.op === b?.op && a?.info === b?.info) continue;
    const show = (s: PlanStep | undefined) => (s ? `${s.op} ${s.info}`.trim() : '(nothing)');
    return `plan step ${i + 1}: ${show(a)} ≠ reference ${show(b)}`;
  }
  return null;
}
