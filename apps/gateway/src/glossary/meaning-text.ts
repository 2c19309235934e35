import type { ArithmeticOp, ColumnRef, CompareOp, Condition, Literal, ValueExpr } from '@nl2p/query-plan';

// The glossary file's short spellings of a meaning: `quantity * unit_price` for an expression,
// `status != 'closed'` for a row condition. Read here, written by the envelope's `conditionText`
// (and `formatExpr` below), so a file round-trips.

const PRECEDENCE: Record<ArithmeticOp, number> = { '+': 1, '-': 1, '*': 2, '/': 2 };
const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?)|([\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)?)|(<=|>=|<>|!=|[-+*/()<>=,])|'((?:[^']|'')*)')/uy;

type Token =
  | { kind: 'number'; value: number }
  | { kind: 'name'; value: string }
  | { kind: 'op'; value: string }
  | { kind: 'string'; value: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) throw new Error(`cannot read '${text.slice(at).trim()}' (names, numbers, 'text', operators, brackets)`);
    if (m[1] !== undefined) tokens.push({ kind: 'number', value: Number(m[1]) });
    else if (m[2] !== undefined) tokens.push({ kind: 'name', value: m[2] });
    else if (m[4] !== undefined) tokens.push({ kind: 'string', value: m[4].replace(/''/g, "'") });
    else tokens.push({ kind: 'op', value: m[3] ?? '' });
  }
  return tokens;
}

function columnRef(name: string): ColumnRef {
  const dot = name.indexOf('.');
  return dot < 0 ? { column: name } : { table: name.slice(0, dot), column: name.slice(dot + 1) };
}

/** `quantity * (unit_price - discount)` as a value expression over columns and numbers. */
export function parseExpr(text: string): ValueExpr {
  const tokens = tokenize(text);
  let i = 0;
  const peek = () => tokens[i];
  const primary = (): ValueExpr => {
    const t = tokens[i++];
    if (!t) throw new Error(`'${text}' ends too early`);
    if (t.kind === 'number') return { kind: 'number', value: t.value };
    if (t.kind === 'name') return { kind: 'column', ref: columnRef(t.value) };
    if (t.value === '(') {
      const inner = sum();
      if (tokens[i++]?.value !== ')') throw new Error(`'${text}' has a '(' without its ')'`);
      return inner;
    }
    throw new Error(`'${text}' has '${t.value}' where a name or a number belongs`);
  };
  const chain = (next: () => ValueExpr, ops: string[]) => () => {
    let left = next();
    for (let t = peek(); t?.kind === 'op' && ops.includes(t.value); t = peek()) {
      i++;
      left = { kind: 'arith', op: t.value as ArithmeticOp, left, right: next() };
    }
    return left;
  };
  const product = chain(primary, ['*', '/']);
  const sum = chain(product, ['+', '-']);
  const expr = sum();
  if (i < tokens.length) throw new Error(`'${text}' has '${String(tokens[i]?.value)}' after a complete expression`);
  return expr;
}

/** The expression as the file spells it (brackets only where the order needs them). */
export function formatExpr(e: ValueExpr): string {
  switch (e.kind) {
    case 'number':
      return String(e.value);
    case 'column':
      return e.ref.table ? `${e.ref.table}.${e.ref.column}` : e.ref.column;
    // Not a glossary spelling: said in words, for messages only.
    case 'elapsed':
      return `${e.unit}s from ${e.from.column} to ${e.to.column}`;
    case 'arith': {
      const side = (child: ValueExpr, right: boolean) => {
        const text = formatExpr(child);
        if (child.kind !== 'arith') return text;
        const lower = PRECEDENCE[child.op] < PRECEDENCE[e.op];
        // `a - (b - c)` and `a / (b * c)` need their brackets; `a + (b + c)` is written without.
        const sameButOrdered = right && PRECEDENCE[child.op] === PRECEDENCE[e.op] && (e.op === '-' || e.op === '/');
        return lower || sameButOrdered ? `(${text})` : text;
      };
      return `${side(e.left, false)} ${e.op} ${side(e.right, true)}`;
    }
  }
}

const COMPARE: Record<string, CompareOp> = {
  '=': '=',
  '!=': '!=',
  '<>': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

const CONDITION_FORM =
  'a condition such as "temperature > 30", "status != \'closed\'", "country in (\'FR\', \'DE\')" or "email is null", joined by and, or, not';

/**
 * A row condition over columns as the plan types it: `column op literal` (a number, a 'quoted'
 * text, true or false), `column [not] in (literal, …)`, `column is [not] null`, joined by `and`
 * (binding first), `or`, `not` and brackets.
 */
export function parseCondition(text: string): Condition {
  const tokens = tokenize(text);
  let i = 0;
  /** Takes the next token when it is the keyword `w` (any case); says whether it did. */
  const accept = (w: string): boolean => {
    const t = tokens[i];
    if (t?.kind !== 'name' || t.value.toLowerCase() !== w) return false;
    i++;
    return true;
  };
  const fail = (why: string): never => {
    throw new Error(`'${text}' is not ${CONDITION_FORM} (${why})`);
  };
  const literal = (): Literal => {
    const t = tokens[i++];
    const minus = t?.kind === 'op' && t.value === '-' && tokens[i]?.kind === 'number';
    if (minus) return { kind: 'number', value: -(tokens[i++] as { value: number }).value };
    if (t?.kind === 'number') return { kind: 'number', value: t.value };
    if (t?.kind === 'string') return { kind: 'string', value: t.value };
    if (t?.kind === 'name' && /^(true|false)$/i.test(t.value))
      return { kind: 'boolean', value: /^true$/i.test(t.value) };
    return fail(t ? `'${String(t.value)}' where a value belongs` : 'a value is missing');
  };
  const comparison = (): Condition => {
    const t = tokens[i++];
    if (t?.kind !== 'name') return fail(t ? `'${String(t.value)}' where a column belongs` : 'it ends too early');
    const column = columnRef(t.value);
    if (accept('is')) {
      const negated = accept('not');
      if (!accept('null')) return fail('`is` is followed by null or not null');
      return { kind: 'null', column, negated };
    }
    const negated = accept('not');
    if (accept('in')) {
      if (tokens[i++]?.value !== '(') return fail('`in` is followed by a bracketed list');
      const values = [literal()];
      while (tokens[i]?.value === ',') {
        i++;
        values.push(literal());
      }
      if (tokens[i++]?.value !== ')') return fail("the list after `in` has no ')'");
      return { kind: 'in', column, values, ...(negated ? { negated } : {}) };
    }
    if (negated) return fail('`not` after a column is followed by in');
    const op = tokens[i]?.kind === 'op' ? COMPARE[tokens[i].value] : undefined;
    if (!op) return fail(`no comparison after '${t.value}'`);
    i++;
    return { kind: 'compare', left: { kind: 'column', ref: column }, op, value: literal() };
  };
  const primary = (): Condition => {
    if (accept('not')) return { kind: 'not', condition: primary() };
    if (tokens[i]?.value !== '(') return comparison();
    i++;
    const inner = either();
    if (tokens[i++]?.value !== ')') return fail("a '(' without its ')'");
    return inner;
  };
  const joined = (kind: 'and' | 'or', next: () => Condition) => (): Condition => {
    const parts = [next()];
    while (accept(kind)) parts.push(next());
    return parts.length === 1 ? parts[0] : { kind, conditions: parts };
  };
  const both = joined('and', primary);
  const either = joined('or', both);
  const condition = either();
  if (i < tokens.length) fail(`'${String(tokens[i].value)}' after a complete condition`);
  return condition;
}
