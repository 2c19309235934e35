import { isKeyColumn, ownKey } from '../schema-index';
import { singular } from '../text';
import type { TermLink } from '../types';
import { joinKeyOf } from './join-key';
import { nameColumnOfTable } from './projection';
import { column, doubt, isTableMention, join, keyFor, ofTerm, resolve, term, ties, TIE, use } from './lookup';
import { isGrouped, type ReadingRule, type ReadingState, type Resolved } from './state';

/**
 * Entities ranked or kept by how many rows of another table refer to them: `the customer who made
 * the most orders`, `the 5 airlines with the most routes`, `names of the teams with more than 3
 * players`. The counted noun names one table (the rows counted), another noun the entity; the plan
 * reads one and joins the other along the schema's keys, groups by the entity's key and shows what
 * the request lists of the entity, else its name column; the superlative then sorts on count(*)
 * (order-limit) and a threshold compares it (having). Two tables that could be the entity are a
 * doubt naming both.
 */
export const countedEntities: ReadingRule = {
  name: 'counted-entities',
  apply(s) {
    if (s.schema.streaming || !s.source || s.extreme || groupsByColumn(s)) return;
    if (isGrouped(s)) {
      groupedByReference(s);
      return;
    }
    const counted = countedTable(s);
    if (!counted) return;
    const entity = entityOf(s, counted.table, counted.term);
    if (!entity) return;
    const key = entityKey(s, entity.table, counted.table);
    if (!key) return;
    if (entity.term) use(s, entity.term);
    s.groupsNeeded = true;
    s.groupKeys.push(key);
    showEntity(s, entity.table, key);
    // How many rows each has: what the superlative sorts on, what the threshold compares.
    if (!s.aggregates.length) s.aggregates.push({ link: null, agg: { fn: 'count', arg: null, distinct: false } });
    s.readings.push(`"${counted.term.text}" is counted per ${entity.table} row`);
    s.oneEntity = counted.superlative && !!entity.said && isSingular(s, entity.said);
  },
};

/**
 * `Which types of policy …`, `(by customer id)`: a grouping word naming a column says what is
 * grouped and shown; no entity to count for or to show by its name.
 */
function groupsByColumn(s: ReadingState): boolean {
  return s.links.groups.some((g) => {
    const t = term(s, g.term);
    // `the station name with at least two trains`: the noun before a clause is what is shown.
    const clause = /\b(with|whose)$/i.test(g.text);
    return !clause && !!t && t.columns.length > 0 && !tableNamed(s, t);
  });
}

/**
 * `the top 5 drugs by number of treatments and average amount`: a limit with no key said over
 * several figures ranks on the first by default (order-limit), a guess this reading does not
 * build on.
 */
function rankedByGuess(s: ReadingState): boolean {
  const L = s.links;
  return s.aggregates.length > 1 && L.orders.some((o) => o.limit !== null) && !L.orders.some((o) => o.key);
}

function isSingular(s: ReadingState, t: TermLink): boolean {
  const w = (s.links.tokens[t.end - 1] ?? '').toLowerCase();
  return !!w && singular(w) === w;
}

/**
 * Shows the entity grouped on `key` by what the request lists of it, else by its name column; the
 * key groups, so that two entities of one name stay two, and is shown only when asked for.
 */
function showEntity(s: ReadingState, entity: string, key: Resolved): void {
  const shown = shownColumns(s, entity, key);
  if (shown.length && !shown.includes(key)) s.unshownKeys.push(key);
  for (const r of shown) if (r !== key) s.groupKeys.push(r);
}

/**
 * `Which department has the most employees?` read from employees, grouped by their department_id:
 * the department a word names is shown by its name (or what the request lists of it),
 * joined, rather than by the id that refers to it.
 */
function groupedByReference(s: ReadingState): void {
  const [key, ...others] = s.groupKeys;
  if (!key || others.length || s.timeBucket || s.window || !s.scope.includes(key.table) || rankedByGuess(s)) return;
  for (const t of s.links.terms) {
    const table = !t.values.length && !t.negated ? tableNamed(s, t) : null;
    if (!table || table === key.table || !refersTo(s, key, table)) continue;
    // With nothing listed of it and no name column, the key shows it already: no join.
    const listed = s.links.terms.some(
      (x) => x.projected && !s.used.has(x.id) && x.columns.some((c) => c.table === table),
    );
    if ((!listed && !nameColumnOfTable(s, table)) || !join(s, table)) return;
    showEntity(s, table, key);
    return;
  }
}

/** The key is a column of its table that refers to `table` (`certificate.eid` to employee). */
function refersTo(s: ReadingState, key: Resolved, table: string): boolean {
  return joinKeyOf(s.schema.tables, key.table, table, s.schema.keys)?.left === key.info.column;
}

interface Mention {
  term: TermLink;
  table: string;
}

/** The entity's table, and the noun that names it (none when only its columns are said). */
interface Entity {
  table: string;
  term: TermLink | null;
  /** The words that say how many are asked for (`the customer last name`: one). */
  said: TermLink | null;
}

interface Counted extends Mention {
  /** Ranked by a superlative (`the most orders`), not compared (`more than 3`). */
  superlative: boolean;
}

/**
 * The table whose rows are counted: the noun a superlative sorts on (`the most orders`), a count
 * said (`the largest number of routes`), or the noun of a threshold on a count (`more than one
 * loan`), when it names a table rather than a column.
 */
function countedTable(s: ReadingState): Counted | null {
  const L = s.links;
  const ranked = new Set<number>();
  for (const o of L.orders) {
    // `the hottest readings` ranks by what the superlative evokes, not by a count.
    if (o.direction === null || o.hinted.length) continue;
    // `the most orders`: a superlative said with no key ranks by the noun right after it.
    const next = o.key ? undefined : L.terms.find((t) => t.start === o.end);
    if (next) ranked.add(next.id);
    if (o.key && 'term' in o.key) ranked.add(o.key.term);
    const agg = o.key && 'aggregate' in o.key ? L.aggregates[o.key.aggregate] : undefined;
    if (agg?.fn === 'count' && agg.target && 'term' in agg.target) ranked.add(agg.target.term);
  }
  const ids = [...ranked];
  if (s.pendingHaving.some((h) => h.rows || h.fn === 'count'))
    for (const c of L.comparisons)
      if (c.countsRows || c.aggregate === 'count')
        ids.push(...L.terms.filter((t) => t.end === c.end && t.start > c.start).map((t) => t.id));
  const found = [...new Set(ids)].flatMap((id) => {
    const t = term(s, id);
    const table = t && !t.values.length && !t.negated ? tableNamed(s, t) : null;
    // `the party with the most hosts` beside party.Number_of_hosts: a column of another table
    // holds the count already (a figure of the counted rows themselves does not).
    const held = t && table ? resolve(s, t, { measure: true }) : null;
    if (held && !isKeyColumn(held.info) && held.table !== table) return [];
    return t && table ? [{ term: t, table, superlative: ranked.has(id) }] : [];
  });
  return found.length === 1 ? (found[0] ?? null) : null;
}

/**
 * The table a noun names: as a table mention, or its best table candidate when it is said as the
 * table (exactly or in the plural), or when what fits it better is only a key (`competition`:
 * Competition_ID names the competitions themselves).
 */
function tableNamed(s: ReadingState, t: TermLink): string | null {
  const mention = isTableMention(s, t);
  if (mention) return mention;
  const table = t.tables[0];
  if (!table) return null;
  const best = t.columns[0];
  const info = best && s.index.table(best.table)?.columns.find((c) => c.label === best.label);
  return ['exact', 'plural'].includes(table.match) || (info && isKeyColumn(info)) ? table.table : null;
}

/**
 * The entity: the one other table a noun of the request names, not yet used by the plan, that the
 * counted table is joined to; the plan reads one of the two. Two candidates are a doubt.
 */
function entityOf(s: ReadingState, counted: string, countedTerm: TermLink): Entity | null {
  const source = s.source ?? '';
  const candidates = new Map<string, TermLink>();
  // A noun a limit ranks or a grouping names may be marked used without grouping anything yet,
  // and one that only brought its table in (joins).
  const heads = new Set([s.limitHead?.term.id, ...s.links.groups.map((g) => g.term)]);
  const joinedBy = (t: TermLink) => !!s.joins.get(isTableMention(s, t) ?? '');
  for (const t of s.links.terms) {
    const taken = s.used.has(t.id) && !heads.has(t.id) && !joinedBy(t);
    if (t === countedTerm || taken || t.values.length || t.negated) continue;
    const table = tableNamed(s, t);
    if (table && table !== counted && !candidates.has(table)) candidates.set(table, t);
  }
  // `the customer last name and phone with the most orders`: the entity said only by its columns.
  if (!candidates.size) {
    const listed = new Set(s.links.terms.flatMap((t) => (listedOnly(s, t) ? [t.columns[0]?.table ?? ''] : [])));
    const [only] = listed;
    const first = s.links.terms.find((t) => listedOnly(s, t));
    if (listed.size === 1 && only && only !== counted && counted === source)
      return { table: only, term: null, said: first ?? null };
  }
  // Read from a link table (`assignments`), both are what it refers to.
  const bridged = (table: string) => !!keyFor(s, table) && !!keyFor(s, counted);
  const fits = [...candidates].filter(([table]) => table === source || counted === source || bridged(table));
  if (fits.length > 1) {
    doubt(s, `"${countedTerm.text}" counted per ${fits.map(([t]) => t).join(' or ')}`);
    return null;
  }
  const [fit] = fits;
  return fit ? { table: fit[0], term: fit[1], said: fit[1] } : null;
}

/**
 * The entity's column a word said of it names (`names of festivals`: Festival_Name, not
 * artwork.Name); columns of the entity it fits equally, the words around it telling none apart
 * (`heights`: Years_as_tallest or Height_feet), are a question.
 */
function entityColumn(s: ReadingState, t: TermLink, entity: string): Resolved | null {
  const own = t.columns.filter((c) => c.table === entity && c.match !== 'concept').sort((a, b) => b.score - a.score);
  const label = (l: string) => (entity === s.source ? l : `${entity}.${l}`);
  const tied = ties(s, t).filter((l) => own.some((c) => label(c.label) === l));
  const pick = tied.length === 1 ? own.find((c) => label(c.label) === tied[0]) : own[0];
  const info = pick && column(s, pick);
  if (!pick || !info) return null;
  const near = tied.length === 1 ? [] : own.filter((c) => pick.score - c.score < TIE).map((c) => label(c.label));
  if (new Set(near).size > 1) s.ambiguous.push({ phrase: t.text, candidates: [...new Set(near)] });
  return { table: entity, info, score: pick.score };
}

function sameColumn(a: Resolved, b: Resolved): boolean {
  return a.table === b.table && a.info.label === b.info.label;
}

/** A column listed to be shown, by its name (not `id`), that no reading used. */
function listedOnly(s: ReadingState, t: TermLink): boolean {
  const best = t.columns[0];
  return t.projected && !s.used.has(t.id) && !t.values.length && !!best && best.match !== 'generic';
}

/**
 * What identifies an entity in the plan: its own key when the plan reads the entity (the counted
 * rows joined), the source's column referring to it when the plan reads the counted rows.
 */
function entityKey(s: ReadingState, entity: string, counted: string): Resolved | null {
  const table = s.index.table(entity);
  const own = table && ownKey(table, singular);
  if (entity === s.source) {
    // `the trip with the fewest drivers` where each trip names its one driver: nothing to count.
    const direct = keyFor(s, counted);
    if (!own || (direct && direct.info.label !== own.label)) return null;
    return join(s, counted) ? { table: entity, info: own, score: 1 } : null;
  }
  const key = keyFor(s, entity);
  const countedKey = s.index.table(counted);
  // The counted rows refer to the entity by a column of their own, not by their own key.
  if (key && counted === s.source && countedKey && ownKey(countedKey, singular)?.label === key.info.label) return null;
  if (!join(s, entity) || !join(s, counted)) return null;
  // Reached through a link table (events a journalist reported): the entity's own key.
  return key ?? (own ? { table: entity, info: own, score: 1 } : null);
}

/**
 * What the request lists of the entity (`the name and phone of the customer …`, `their ids`),
 * else its name column: the key only when nothing names the entity better.
 */
function shownColumns(s: ReadingState, entity: string, key: Resolved): Resolved[] {
  const out: Resolved[] = [];
  for (const t of s.links.terms) {
    // Listed (`show the name and phone`), or said of the entity (`the name and phone of the employee`).
    const owner = ofTerm(s, t);
    const listed = t.projected || (!!owner && isTableMention(s, owner) === entity);
    if (!listed || s.used.has(t.id) || t.values.length) continue;
    const generic = t.columns.length > 0 && t.columns.every((c) => c.match === 'generic');
    const found = generic ? key : entityColumn(s, t, entity);
    const r = found && sameColumn(found, key) ? key : found;
    if (!r || (r !== key && r.table !== entity)) continue;
    use(s, t);
    if (!out.some((o) => sameColumn(o, r))) out.push(r);
  }
  if (out.length) return out;
  const name = nameColumnOfTable(s, entity);
  return name ? [{ table: entity, info: name, score: 1 }] : [];
}
