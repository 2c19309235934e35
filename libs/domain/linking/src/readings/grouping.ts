import { ownKey } from '../schema-index';
import { singular } from '../text';
import type { TermLink } from '../types';
import { doubt, isTableMention, join, keyFor, matchKind, resolve, term, use } from './lookup';
import type { LimitHead, ReadingRule, ReadingState, Resolved } from './state';

/**
 * The group keys: what each grouping cue names (`per device` → the source's device_id, no join
 * needed; `per customer country` → customers.country, joined), `which X`/`each X` only when
 * something is computed per X, and the noun a limit ranks (`the 3 devices with the highest
 * average`). A `by` key replaces the entity's key it refines (`which customers, by name`).
 */
export const grouping: ReadingRule = {
  name: 'grouping',
  apply(s) {
    const L = s.links;
    const superlativeOrder = L.orders.some((o) => o.direction !== null && o.key !== null);
    s.groupsNeeded = s.aggregates.length > 0 || superlativeOrder;
    s.limitHead = limitHead(s);
    for (const g of L.groups) {
      const head = term(s, g.term);
      if (!head) continue;
      // "which X", "each X", "every X" only group when something is computed per X.
      if ((g.cue === 'which' || g.cue === 'each' || g.cue === 'every') && !s.groupsNeeded) continue;
      const qualifierTables = g.qualifiers.flatMap((q) => term(s, q)?.tables.map((x) => x.table) ?? []);
      for (const q of g.qualifiers) use(s, term(s, q));
      for (const qt of qualifierTables) if (qt !== s.source) join(s, qt);
      const own = groupKey(s, head, qualifierTables[0] ?? null);
      const r =
        own === undefined || (own && isOwnKey(s, own)) || headOnlyGeneric(s, head, own, g.qualifiers)
          ? (qualifierKey(s, g.qualifiers) ?? own)
          : own;
      use(s, head);
      if (r === undefined) continue;
      // "Which customers (by name)": the `by` column replaces the entity's key.
      if (g.cue === 'by' && r) {
        const i = s.groupKeys.findIndex(
          (k) => s.joins.has(r.table) && k.table === s.source && s.joins.get(r.table)?.left === k.info.column,
        );
        if (i >= 0) s.groupKeys.splice(i, 1);
      }
      if (r) addKey(s, r);
    }
    const head = s.limitHead;
    // `the 3 highest unit prices`: the noun ranked is what the order sorts on, not a group.
    const sortedOn = L.orders.some((o) => o.key && 'term' in o.key && o.key.term === head?.term.id);
    if (head && s.groupsNeeded && !sortedOn) {
      use(s, head.term);
      for (const q of head.qualifiers) use(s, q);
      const r = groupKey(s, head.term, head.qualifiers[0]?.tables[0]?.table ?? null);
      if (r && !s.groupKeys.length) addKey(s, r);
    }
  },
};

/**
 * `each department offer` read as one noun whose head is the source's own rows (`offer`: an
 * offering, the rows of course_offering): the head groups nothing, so the word before it is what
 * is grouped by (`department`), not a qualifier to drop. Undefined when there is none, or it
 * groups nothing either.
 */
function qualifierKey(s: ReadingState, qualifiers: number[]): Resolved | null | undefined {
  const last = qualifiers.at(-1);
  const q = last === undefined ? undefined : term(s, last);
  // The column the word names best, joined if need be (`department`: course.department, not a loose match in scope).
  return q && !isTableMention(s, q) ? groupKey(s, q, q.columns[0]?.table ?? null) : undefined;
}

/**
 * `for each decor type` beside `decor` and `bedType`: a head met only as a generic word (`type`)
 * or by meaning yields to the word before it when that word spells a column (`decor`).
 */
function headOnlyGeneric(s: ReadingState, head: TermLink, own: Resolved | null, qualifiers: number[]): boolean {
  const kind = own ? matchKind(head, own) : null;
  if (kind !== 'generic' && kind !== 'related') return false;
  const q = term(s, qualifiers.at(-1) ?? -1);
  return !!q && q.columns.some((c) => c.match === 'exact' || c.match === 'plural');
}

/** The source's own key on SQL targets: a group per row is no group. */
function isOwnKey(s: ReadingState, r: Resolved): boolean {
  const src = s.index.table(s.source ?? '');
  return !s.schema.streaming && r.table === s.source && !!src && ownKey(src, singular)?.label === r.info.label;
}

/** A key, once; not the source's own key on SQL targets (a group per row is no group). */
function addKey(s: ReadingState, r: Resolved): void {
  if (isOwnKey(s, r)) return;
  if (!s.groupKeys.some((k) => k.table === r.table && k.info.label === r.info.label)) s.groupKeys.push(r);
}

/** `the 3 devices with …`, `the 10 most recent orders`: the noun a limit ranks. */
function limitHead(s: ReadingState): LimitHead | null {
  const terms = s.links.terms;
  const limit = s.links.orders.find((o) => o.limit !== null);
  if (!limit) return null;
  const near = terms.filter((t) => t.start >= limit.end && t.start <= limit.end + 3 && !t.values.length);
  let head = near[0];
  if (!head) return null;
  const qualifiers: TermLink[] = [];
  for (
    let next = terms.find((t) => t.start === head?.end);
    next && !next.values.length;
    next = terms.find((t) => t.start === next?.end)
  ) {
    qualifiers.push(head);
    head = next;
  }
  return { term: head, qualifiers };
}

/** What a grouping word groups by; undefined = nothing to group (the rows themselves). */
export function groupKey(s: ReadingState, head: TermLink, preferTable: string | null): Resolved | null | undefined {
  const table = isTableMention(s, head);
  if (table && !(preferTable && head.columns.some((c) => c.table === preferTable))) {
    // `per device` groups by the source's device_id: no join needed for the key itself.
    const key = keyFor(s, table);
    if (key) return key;
    if (table === s.source) return undefined;
    join(s, table);
  }
  if (preferTable && preferTable !== s.source) join(s, preferTable);
  const r = resolve(s, head, { preferTable });
  if (!r) {
    doubt(s, `no column to group "${head.text}" by`);
    return null;
  }
  return r;
}
