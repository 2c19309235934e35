import { conditionOf, describeMeaning, type Resolution } from '@nl2p/envelope';
import type { LinkSchema } from '@nl2p/linking';
import type {
  Aggregate,
  ColumnRef,
  Condition,
  MeasureExpr,
  OrderKey,
  Projection,
  QueryPlan,
  ValueExpr,
} from '@nl2p/query-plan';

/**
 * The session's resolutions as names the linker reads like any other: a word the person explained
 * becomes a name of its own in the schema the linker sees (a column, a table or a value of that
 * word), so the same reading machinery consumes it, and the plan it yields is then spelled back in
 * the real names ({@link resolvePlan}). Nothing is added to the request's text.
 */
export interface ResolvedSchema {
  schema: LinkSchema;
  /** Virtual name → the resolution it stands for. Keys: `table.column`, `table`, `table.column=value`. */
  names: Map<string, Resolution>;
}

/** The identifier a word becomes (`wind speed` → `wind_speed`): the linker splits it back into words. */
export function identifierOf(word: string): string {
  return word
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

/** `schema` with every resolution's word as a name of its own (see {@link ResolvedSchema}). */
export function withResolutions(schema: LinkSchema, resolutions: readonly Resolution[]): ResolvedSchema {
  const tables = { ...schema.tables };
  const values: NonNullable<LinkSchema['values']> = { ...(schema.values ?? {}) };
  const names = new Map<string, Resolution>();
  for (const r of resolutions) {
    const name = identifierOf(r.word);
    const m = r.means;
    if (!name) continue;
    if (m.kind === 'table') {
      const columns = tables[m.table];
      if (!columns || tables[name]) continue;
      tables[name] = columns;
      if (values[m.table]) values[name] = values[m.table] ?? {};
      names.set(name, r);
      continue;
    }
    if (m.kind === 'value') {
      // The word is that column's value: the other columns that list it too (`JFK` as a departure
      // and an arrival airport, here or in another table) no longer offer it, or the reading
      // would tie again.
      for (const [table, columns] of Object.entries(values)) values[table] = withoutValue(columns, r.word, table, m);
      const own = { ...(values[m.table] ?? {}) };
      own[m.column] = [...(own[m.column] ?? []), r.word];
      values[m.table] = own;
      names.set(`${m.table}.${m.column}=${r.word}`, r);
      continue;
    }
    const columns = tables[m.table];
    // A word that already names a column of that table needs no second name.
    if (!columns || columns.some((c) => c.name.toLowerCase() === name)) continue;
    const type =
      m.kind === 'column'
        ? (columns.find((c) => c.name === m.column)?.data_type ?? 'VARCHAR')
        : m.kind === 'expr'
          ? 'DOUBLE'
          : 'BOOLEAN';
    tables[m.table] = [...columns, { name, data_type: type }];
    names.set(`${m.table}.${name}`, r);
  }
  return { schema: { ...schema, tables, values }, names };
}

/** `columns`' listed values without `word`, except in the column `keep` names. */
function withoutValue(
  columns: Record<string, string[]>,
  word: string,
  table: string,
  keep: { table: string; column: string },
): Record<string, string[]> {
  const said = word.trim().toLowerCase();
  return Object.fromEntries(
    Object.entries(columns).map(([column, listed]) => [
      column,
      table === keep.table && column === keep.column ? listed : listed.filter((v) => v.trim().toLowerCase() !== said),
    ]),
  );
}

/** A plan in the real names, and the resolutions it used; null plan when one cannot be spelled so. */
export interface ResolvedPlan {
  plan: QueryPlan | null;
  used: Resolution[];
  /** Why the plan could not be spelled in real names (a computed word where only a column can be). */
  problem: string | null;
}

/**
 * The linker's plan over the virtual names, spelled in the real ones: a column word becomes its
 * column, a computed word its expression (aliased with the word when shown), a condition word its
 * comparison, a table word its table, a value word its value.
 */
export function resolvePlan(plan: QueryPlan, names: ReadonlyMap<string, Resolution>): ResolvedPlan {
  if (!names.size) return { plan, used: [], problem: null };
  const used = new Set<Resolution>();
  const problems: string[] = [];
  const use = (r: Resolution) => (used.add(r), r);
  const realTable = (t: string): string => {
    const r = names.get(t);
    if (r?.means.kind !== 'table') return t;
    use(r);
    return r.means.table;
  };
  const source = realTable(plan.source);
  const virtualOf = (ref: ColumnRef): Resolution | undefined => names.get(`${ref.table ?? plan.source}.${ref.column}`);

  const ref = (c: ColumnRef): ColumnRef => {
    const r = virtualOf(c);
    const table = c.table ? realTable(c.table) : c.table;
    if (!r) return { ...c, ...(c.table ? { table } : {}) };
    use(r);
    if (r.means.kind === 'column') return { ...c, ...(c.table ? { table } : {}), column: r.means.column };
    problems.push(`'${r.word}' (${describeMeaning(r.means)}) cannot be used where a plain column is needed`);
    return c;
  };
  const expr = (e: ValueExpr): ValueExpr => {
    if (e.kind === 'number') return e;
    if (e.kind === 'arith') return { ...e, left: expr(e.left), right: expr(e.right) };
    if (e.kind === 'elapsed') return { ...e, from: ref(e.from), to: ref(e.to) };
    const r = virtualOf(e.ref);
    if (r?.means.kind === 'expr') return (use(r), r.means.expr);
    return { kind: 'column', ref: ref(e.ref) };
  };
  const cond = (c: Condition): Condition => {
    switch (c.kind) {
      case 'compare': {
        const r = c.left.kind === 'column' ? virtualOf(c.left.ref) : undefined;
        if (r?.means.kind === 'condition') {
          use(r);
          const positive = c.value.kind !== 'boolean' || c.value.value === (c.op === '=');
          const where = conditionOf(r.means);
          return positive ? where : { kind: 'not', condition: where };
        }
        return { ...c, left: expr(c.left) };
      }
      case 'in': {
        const column = ref(c.column);
        const values = c.values.map((v) => {
          const r =
            v.kind === 'string' ? names.get(`${c.column.table ?? plan.source}.${column.column}=${v.value}`) : undefined;
          return r?.means.kind === 'value' ? (use(r), { kind: 'string' as const, value: r.means.value }) : v;
        });
        return { ...c, column, values };
      }
      case 'between':
      case 'text':
      case 'null':
        return { ...c, column: ref(c.column) };
      case 'and':
      case 'or':
        return { ...c, conditions: c.conditions.map(cond) };
      case 'not':
        return { ...c, condition: cond(c.condition) };
      // A sub-plan's own names are its own scope: the outer value is spelled back, the sub-plan kept.
      case 'in_subquery':
      case 'compare_subquery':
        return { ...c, left: expr(c.left) };
      case 'exists':
        return c;
    }
  };
  const aggregate = (a: Aggregate): Aggregate => ({ ...a, arg: a.arg && expr(a.arg) });
  const measure = (e: MeasureExpr): MeasureExpr => {
    if (e.kind === 'number') return e;
    if (e.kind === 'arith') return { ...e, left: measure(e.left), right: measure(e.right) };
    return { ...e, aggregate: aggregate(e.aggregate), ...(e.filter ? { filter: cond(e.filter) } : {}) };
  };
  const projection = (p: Projection): Projection => {
    if (p.kind === 'bucket') return p;
    if (p.kind === 'measure') return { ...p, expr: measure(p.expr) };
    if (p.kind === 'aggregate') {
      const arg = p.aggregate.arg;
      const r = arg?.kind === 'column' ? virtualOf(arg.ref) : undefined;
      // An aggregate of a computed word is named after the word (`sum_revenue`), not its formula.
      const alias = p.alias ?? (r?.means.kind === 'expr' ? `${p.aggregate.fn}_${identifierOf(r.word)}` : null);
      return { ...p, alias, aggregate: { ...p.aggregate, arg: arg && expr(arg) } };
    }
    const r = p.expr.kind === 'column' ? virtualOf(p.expr.ref) : undefined;
    // A computed word keeps its name on the output (`revenue`), as the person said it.
    const alias = p.alias ?? (r?.means.kind === 'expr' ? identifierOf(r.word) : null);
    return { ...p, expr: expr(p.expr), alias };
  };
  const orderKey = (k: OrderKey): OrderKey =>
    k.kind === 'value'
      ? { ...k, expr: expr(k.expr) }
      : k.kind === 'aggregate'
        ? { ...k, aggregate: { ...k.aggregate, arg: k.aggregate.arg && expr(k.aggregate.arg) } }
        : k;

  const resolved: QueryPlan = {
    ...plan,
    source,
    joins: plan.joins.map((j) => ({
      ...j,
      table: realTable(j.table),
      on: j.on.map((o) => ({ left: ref(o.left), right: ref(o.right) })),
    })),
    select: plan.select.map(projection),
    where: plan.where && valueWordsAsEquality(cond(plan.where), names, plan.source, use),
    group_by: plan.group_by.map(ref),
    time_bucket: plan.time_bucket && { ...plan.time_bucket, column: ref(plan.time_bucket.column) },
    having: plan.having.map((h) => ({
      ...h,
      aggregate: { ...h.aggregate, arg: h.aggregate.arg && expr(h.aggregate.arg) },
    })),
    order_by: plan.order_by.map((o) => ({ ...o, key: orderKey(o.key) })),
  };
  return problems.length
    ? { plan: null, used: [...used], problem: problems.join('; ') }
    : { plan: resolved, used: [...used], problem: null };
}

/** A value word compared with `=` (`status = 'broken ones'`) becomes its value. */
function valueWordsAsEquality(
  c: Condition,
  names: ReadonlyMap<string, Resolution>,
  source: string,
  use: (r: Resolution) => Resolution,
): Condition {
  if (c.kind === 'and' || c.kind === 'or') {
    return { ...c, conditions: c.conditions.map((x) => valueWordsAsEquality(x, names, source, use)) };
  }
  if (c.kind === 'not') return { ...c, condition: valueWordsAsEquality(c.condition, names, source, use) };
  if (c.kind !== 'compare' || c.left.kind !== 'column' || c.value.kind !== 'string') return c;
  const r = names.get(`${c.left.ref.table ?? source}.${c.left.ref.column}=${c.value.value}`);
  if (r?.means.kind !== 'value') return c;
  use(r);
  return { ...c, value: { kind: 'string', value: r.means.value } };
}

/** What the turn tells the person about the words it read through their explanations. */
const HOW_LEARNT: Record<Resolution['from'], string> = {
  reply: 'as you answered',
  definition: 'as you defined it',
  glossary: 'as your glossary defines it',
  model: 'the model’s choice among the columns it fits equally (say so if you meant another)',
};

/**
 * One line per word read through an explanation; a word defined in this session also says how to
 * keep it for every session (the product offers, the person decides).
 */
export function resolutionAssumptions(used: readonly Resolution[]): string[] {
  return used.map((r) => {
    const line = `"${r.word}" is read as ${describeMeaning(r.means)}, ${HOW_LEARNT[r.from]}`;
    return r.from === 'definition' ? `${line}; ${REMEMBER_OFFER(r.word)}` : line;
  });
}

/** How the person keeps a definition for every session: one call with the session and the word. */
const REMEMBER_OFFER = (word: string) =>
  `to keep "${word}" for every session, add it to your glossary (POST /v1/glossary/remember with this session's id and "${word}")`;

/**
 * What a reading applies: the session's own explanations first, then the tenant's glossary for
 * every word the session has not explained (an explanation in the session wins over the glossary).
 */
export function readingResolutions(e: {
  resolutions: readonly Resolution[];
  glossary?: readonly Resolution[];
}): Resolution[] {
  const explained = new Set(e.resolutions.map((r) => identifierOf(r.word)));
  return [...e.resolutions, ...(e.glossary ?? []).filter((g) => !explained.has(identifierOf(g.word)))];
}
