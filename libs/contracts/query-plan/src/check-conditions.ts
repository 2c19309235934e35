import type { PlanScope } from './check-scope';
import { describe, describeRef } from './describe';
import type { ValueClass } from './names';
import type { Condition, Literal, Subquery } from './plan';

/** Which literal kinds compare with which column classes ('other' is left to the engine). */
const LITERAL_FITS: Record<Literal['kind'], ValueClass[]> = {
  number: ['number', 'other'],
  // A quoted date compares with a time column on both SQL targets; text is the usual case.
  string: ['text', 'time', 'other'],
  boolean: ['boolean', 'other'],
  timestamp: ['time', 'other'],
};

function literalText(v: Literal): string {
  return v.kind === 'string' || v.kind === 'timestamp' ? `'${v.value}'` : String(v.value);
}

/** A sub-plan checked in its own scope, with the class of each output (null for `*`). */
export interface CheckedSubquery {
  subquery: Subquery;
  outputs: ValueClass[] | null;
  /** False when the sub-plan's source does not exist: its shape is then not judged again. */
  known: boolean;
}

/** Checks a sub-plan held by a condition of the plan whose scope is `outer`. */
export type SubqueryChecker = (s: Subquery, outer: PlanScope) => CheckedSubquery;

/** Two classes that may be compared (or combined): equal, or one left to the engine. */
export function comparable(a: ValueClass, b: ValueClass): boolean {
  return a === b || a === 'other' || b === 'other';
}

/**
 * Row conditions, normalised in `scope`: every column resolved, each literal fitting its column,
 * text matched only on text, and a sub-plan giving one column of the compared value's class.
 */
export class ConditionChecker {
  constructor(
    private readonly scope: PlanScope,
    private readonly subquery: SubqueryChecker,
  ) {}

  check(c: Condition, tables: readonly string[] = this.scope.inScope): Condition {
    const s = this.scope;
    switch (c.kind) {
      case 'compare': {
        this.checkLiteral(describe(c.left), s.valueType(c.left), c.value);
        return { ...c, left: s.normValue(c.left) };
      }
      case 'in':
      case 'between': {
        const t = s.resolve(c.column, tables)?.type;
        const values = c.kind === 'in' ? c.values : [c.low, c.high];
        if (t) values.forEach((v) => this.checkLiteral(describeRef(c.column), t, v));
        return { ...c, column: s.normRef(c.column, tables) };
      }
      case 'null':
        return { ...c, column: s.normRef(c.column, tables) };
      case 'text': {
        const t = s.resolve(c.column, tables)?.type;
        if (t && t !== 'text' && t !== 'other') s.errors.push(`'${describeRef(c.column)}' is ${t}, not text, so it cannot be matched as text; compare it instead`);
        return { ...c, column: s.normRef(c.column, tables) };
      }
      case 'and':
      case 'or':
        return { ...c, conditions: c.conditions.map((x) => this.check(x, tables)) };
      case 'not':
        return { ...c, condition: this.check(c.condition, tables) };
      case 'exists':
        return { ...c, subquery: this.subquery(c.subquery, s).subquery };
      case 'in_subquery':
      case 'compare_subquery':
        return this.valueAgainstSubquery(c);
    }
  } // prettier-ignore

  /** A literal must be comparable with the column's type, or the engine fails at run time. */
  private checkLiteral(subject: string, cls: ValueClass, v: Literal): void {
    if (LITERAL_FITS[v.kind].includes(cls)) return;
    const want = cls === 'number' ? 'a number' : cls === 'text' ? 'a string' : cls === 'time' ? 'a timestamp' : cls === 'boolean' ? 'true or false' : `nothing: it is a ${cls}`;
    this.scope.errors.push(`'${subject}' is ${cls}, so it cannot be compared with the ${v.kind} ${literalText(v)}; compare it with ${want}`);
  } // prettier-ignore

  /**
   * `x IN (sub-plan)` and `x > (sub-plan)`: the sub-plan shows exactly one column, of a class
   * `x` compares with; compared with its single value, it must return at most one row.
   */
  private valueAgainstSubquery(c: Extract<Condition, { kind: 'in_subquery' | 'compare_subquery' }>): Condition {
    const s = this.scope;
    const left = describe(c.left);
    const type = s.valueType(c.left);
    const checked = this.subquery(c.subquery, s);
    const outputs = checked.outputs;
    if (!checked.known) return c;
    if (outputs === null || outputs.length !== 1) {
      s.errors.push(`'${left}' is compared with a sub-plan on ${c.subquery.plan.source}, which must select exactly one column; it selects ${outputs === null ? 'every column (*)' : outputs.length}`);
    } else if (!comparable(type, outputs[0])) {
      s.errors.push(`'${left}' is ${type}, but the sub-plan on ${c.subquery.plan.source} gives ${outputs[0]} values; compare values of one kind`);
    }
    if (c.kind === 'compare_subquery' && (c.quantifier ?? 'single') === 'single' && !returnsOneRow(checked.subquery)) {
      s.errors.push(`'${left} ${c.op}' a sub-plan on ${c.subquery.plan.source} needs one value, but the sub-plan can return several rows; aggregate it without groups (e.g. avg), limit it to 1 row, or compare with all or any of its values`);
    }
    return { ...c, left: s.normValue(c.left), subquery: checked.subquery };
  } // prettier-ignore
}

/** At most one row whatever the data: aggregated without groups, or limited to one. */
function returnsOneRow(s: Subquery): boolean {
  const p = s.plan;
  if (p.set_operations.length) return false;
  if (p.limit === 1) return true;
  const aggregates = p.select.length > 0 && p.select.every((x) => x.kind === 'aggregate' || x.kind === 'measure');
  return aggregates && p.group_by.length === 0 && p.time_bucket === null && p.window === null && p.having.length === 0;
}
