import type { ColumnRef, Condition, Literal } from '@nl2p/query-plan';

// A row condition as people write it in a glossary (`status != 'closed'`,
// `country in ('FR', 'DE')`, `temperature > 30 and humidity < 80`): how the file writes a
// meaning back and how a turn names it in its assumptions. The gateway reads the same spelling.

function ref(r: ColumnRef): string {
  return r.table ? `${r.table}.${r.column}` : r.column;
}

/** A literal as the file writes it: a quoted string (a quote doubled inside), a number, true/false. */
export function literalText(l: Literal): string {
  switch (l.kind) {
    case 'string':
    case 'timestamp':
      return `'${l.value.replace(/'/g, "''")}'`;
    case 'number':
    case 'boolean':
      return String(l.value);
  }
}

/**
 * The condition in the glossary's spelling; null for what that spelling has no words for (a
 * sub-plan, a computed left side), which a glossary never holds.
 */
export function conditionText(c: Condition): string | null {
  switch (c.kind) {
    case 'compare':
      return c.left.kind === 'column' ? `${ref(c.left.ref)} ${c.op} ${literalText(c.value)}` : null;
    case 'in':
      return `${ref(c.column)} ${c.negated ? 'not in' : 'in'} (${c.values.map(literalText).join(', ')})`;
    case 'null':
      return `${ref(c.column)} is ${c.negated ? 'not ' : ''}null`;
    case 'and':
    case 'or': {
      const parts = c.conditions.map((x) => {
        const text = conditionText(x);
        // `and` binds tighter than `or`: an `or` inside an `and` keeps its brackets.
        return text !== null && x.kind === 'or' && c.kind === 'and' ? `(${text})` : text;
      });
      return parts.every((p) => p !== null) ? parts.join(` ${c.kind} `) : null;
    }
    case 'not': {
      const inner = conditionText(c.condition);
      return inner === null ? null : `not (${inner})`;
    }
    default:
      return null;
  }
}

/** Every column a condition reads (what a definition is checked against the schema for). */
export function conditionColumns(c: Condition): ColumnRef[] {
  switch (c.kind) {
    case 'compare':
      return c.left.kind === 'column' ? [c.left.ref] : [];
    case 'in':
    case 'null':
    case 'between':
    case 'text':
      return [c.column];
    case 'and':
    case 'or':
      return c.conditions.flatMap(conditionColumns);
    case 'not':
      return conditionColumns(c.condition);
    default:
      return [];
  }
}
