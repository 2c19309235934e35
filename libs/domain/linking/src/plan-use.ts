import type { QueryPlanInput } from '@nl2p/query-plan';
import { buildIndex, looksTemporal, type SchemaIndex } from './schema-index';
import type { LinkSchema, Links, TermLink } from './types';
import { BARE_ARTICLES } from './recognizers/words';

/**
 * What a plan refers to: its tables, its columns (as `table.column`, the source's also under
 * `.column`), and the text values it compares with. Walked generically, so every construct of the
 * plan language, nested ones included, counts without this file knowing them.
 */
interface PlanRefs {
  tables: Set<string>;
  columns: Set<string>;
  values: Set<string>;
}

function collect(node: unknown, source: string, refs: PlanRefs): void {
  if (Array.isArray(node)) {
    for (const n of node) collect(n, source, refs);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  // A sub-plan refers to its own source; a join to its table.
  const own = typeof o.source === 'string' ? o.source : source;
  if (typeof o.source === 'string') refs.tables.add(o.source);
  if (typeof o.table === 'string' && !('column' in o)) refs.tables.add(o.table);
  if (typeof o.column === 'string') {
    const table = typeof o.table === 'string' ? o.table : own;
    refs.columns.add(`${table}.${o.column}`);
    refs.tables.add(table);
  }
  if (o.kind === 'string' && typeof o.value === 'string') refs.values.add(o.value.toLowerCase());
  if (typeof o.value === 'string' && (o.kind === 'text' || o.match)) refs.values.add(o.value.toLowerCase());
  for (const [key, value] of Object.entries(o)) if (key !== 'source') collect(value, own, refs);
}

export function planRefs(plan: QueryPlanInput): PlanRefs {
  const refs: PlanRefs = { tables: new Set(), columns: new Set(), values: new Set() };
  collect(plan, plan.source, refs);
  return refs;
}

/** Whether the plan uses anything the term names: one of its tables, columns or values. */
function uses(refs: PlanRefs, t: TermLink): boolean {
  if (t.tables.some((c) => refs.tables.has(c.table))) return true;
  if (t.columns.some((c) => refs.columns.has(`${c.table}.${c.column}`))) return true;
  return t.values.some(
    (v) => refs.values.has(v.value.toLowerCase()) || [...refs.values].some((x) => v.value.toLowerCase().includes(x)),
  );
}

/** Quantifiers that say a phrase means all of its rows (`any device`, `over all devices`), not a part of them. */
const WHOLE_SET = new Set(['any', 'all']);

/**
 * Phrases that may go unused without a clause being lost:
 * - a phrase naming only time columns: the event's verb or the output's format (`installed`, `as
 *   a timestamp`, `the day's date`); what the plan does with time is the time rules' to judge;
 * - a phrase after `any` or `all`: the whole set, which is what a plan without a condition reads;
 * - a word next to a phrase the plan uses, both naming columns of one table (`product category`,
 *   `country name`, `declared a major`): one thing said in two words.
 */
function mayGoUnused(t: TermLink, links: Links, index: SchemaIndex, used: (t: TermLink) => boolean): boolean {
  const columns = t.columns.map((c) => index.table(c.table)?.columns.find((x) => x.label === c.label));
  if (!t.tables.length && !t.values.length && columns.length && columns.every((c) => c && looksTemporal(c)))
    return true;
  if (WHOLE_SET.has((links.tokens[t.start - 1] ?? '').toLowerCase())) return true;
  if (namesTheValueAfter(t, links)) return true;
  if (t.tables.length) return false;
  const tables = new Set(t.columns.map((c) => c.table));
  return links.terms.some(
    (x) => x !== t && adjacent(links, t, x) && used(x) && x.columns.some((c) => tables.has(c.table)),
  );
}

/** Verbs that say a value is a name: `the pilot named 'Thompson'`, `a film called "Up"`. */
const NAMING_VERBS: ReadonlySet<string> = new Set(['named', 'called', 'titled', 'entitled']);

/** `named` right before a value (quotes aside) only says the value is a name: the value's link reads it. */
function namesTheValueAfter(t: TermLink, links: Links): boolean {
  if (t.end - t.start !== 1 || !NAMING_VERBS.has(t.text.toLowerCase())) return false;
  let k = t.end;
  while (k < t.end + 2 && !/[\p{L}\p{N}]/u.test(links.tokens[k] ?? '')) k++;
  return links.terms.some((x) => x.start === k && x.values.length > 0);
}

/** Next to each other, or with only articles between (`declared a major`). */
function adjacent(links: Links, a: TermLink, b: TermLink): boolean {
  const [first, second] = a.start < b.start ? [a, b] : [b, a];
  if (first.end > second.start) return false;
  return links.tokens.slice(first.end, second.start).every((w) => BARE_ARTICLES.has(w.toLowerCase()));
}

/**
 * The phrases that name data the plan does not use (`automatic gearbox` in "how many cars have an
 * automatic gearbox" read as a bare count): a clause the plan dropped. A reading that drops one
 * is not conclusive — the accounting of every word extends to what the plan did with it.
 */
export function unusedTerms(links: Links, plan: QueryPlanInput, schema: LinkSchema): string[] {
  const refs = planRefs(plan);
  const index = buildIndex(schema);
  const used = (t: TermLink) => uses(refs, t);
  return links.terms.filter((t) => !used(t) && !mayGoUnused(t, links, index, used)).map((t) => t.text);
}
