import type {
  Aggregate,
  ColumnRef,
  CompareOp,
  Condition,
  HavingCondition,
  Literal,
  OrderKey,
  Projection,
  QueryPlanInput,
  StreamWindow,
  TimeBucket,
  ValueExpr,
} from '@nl2p/query-plan';
import { buildIndex, isTemporalType, looksTemporal, ownKey, type ColumnInfo, type SchemaIndex } from './schema-index';
import { singular } from './text';
import type {
  AggregateLink,
  ComparisonLink,
  ArithmeticNode,
  ColumnCandidate,
  LinkSchema,
  Links,
  PlanProposal,
  PlanSlots,
  SlotColumn,
  TermLink,
} from './types';

/** Column words naming amounts that add up (summed when no aggregate is said). */
const ADDITIVE = new Set([
  'count',
  'quantity',
  'amount',
  'total',
  'revenue',
  'sales',
  'cost',
  'units',
  'volume',
  'number',
  'spend',
  'profit',
]);

/** Scores closer than this are a tie. */
const TIE = 0.05;

/**
 * The key two tables share: a column of the same name ending in `id` (`customer_id` in both), or
 * `<table>_id` in one and `id` in the other.
 */
export function joinKeyOf(
  tables: Readonly<Record<string, readonly { name: string }[]>>,
  left: string,
  right: string,
): { left: string; right: string } | null {
  const l = (tables[left] ?? []).map((c) => c.name);
  const r = (tables[right] ?? []).map((c) => c.name);
  const shared = l.filter((c) => r.includes(c) && /(^|_)id$/i.test(c));
  if (shared[0]) return { left: shared[0], right: shared[0] };
  const fk = (t: string) => `${singular(t.toLowerCase())}_id`;
  const lk = l.find((c) => c.toLowerCase() === fk(right));
  if (lk && r.includes('id')) return { left: lk, right: 'id' };
  const rk = r.find((c) => c.toLowerCase() === fk(left));
  if (rk && l.includes('id')) return { left: 'id', right: rk };
  return null;
}

interface Resolved {
  table: string;
  info: ColumnInfo;
  score: number;
}

/** The request's words, turned into the plan they most likely mean. */
export function proposePlan(links: Links, schema: LinkSchema): PlanProposal {
  return new Proposer(links, schema, buildIndex(schema)).run();
}

class Proposer {
  private readonly notes: string[] = [];
  /** How words that read more than one way were read (shown to the person with the answer). */
  private readonly readings: string[] = [];
  private source: string | null = null;
  private scope: string[] = [];
  private readonly joins = new Map<string, { left: string; right: string }>();
  private readonly ambiguous: { phrase: string; candidates: string[] }[] = [];
  /** Superlatives read as max()/min() rather than as an ordering (by their start token). */
  private readonly superlativeAggregates = new Set<number>();

  constructor(
    private readonly links: Links,
    private readonly schema: LinkSchema,
    private readonly index: SchemaIndex,
  ) {}

  /** A doubt that keeps the proposal from being conclusive. */
  private doubt(why: string) {
    this.notes.push(why);
  }

  private term(id: number): TermLink | undefined {
    return this.links.terms[id];
  }

  private column(c: ColumnCandidate): ColumnInfo | undefined {
    return this.index.table(c.table)?.columns.find((x) => x.label === c.label);
  }

  /** How strongly a term points at a table: as its name, one of its columns, or one of its values. */
  private termScore(t: TermLink, table: string): number {
    let s = 0;
    for (const c of t.tables) if (c.table === table) s = Math.max(s, c.score);
    for (const c of t.columns) if (c.table === table) s = Math.max(s, c.match === 'concept' ? c.score * 0.8 : c.score);
    for (const v of t.values) if (v.table === table) s = Math.max(s, v.score);
    return s;
  }

  /** Terms that must come from the chosen table: what is aggregated, counted or computed. */
  private anchors(): { term: TermLink; asTable: boolean }[] {
    const out: { term: TermLink; asTable: boolean }[] = [];
    for (const a of this.links.aggregates) {
      if (a.target && 'term' in a.target) {
        const t = this.term(a.target.term);
        if (t) out.push({ term: t, asTable: a.countsRows && !a.distinct });
      }
    }
    for (const a of this.links.arithmetic) {
      for (const id of termsOf(a.expr)) {
        const t = this.term(id);
        if (t) out.push({ term: t, asTable: false });
      }
    }
    return out;
  }

  private rankTables(): { table: string; score: number }[] {
    const names = Object.keys(this.schema.tables);
    const anchors = this.anchors();
    const ranked = names.map((table) => {
      let score = 0;
      for (const t of this.links.terms) score += this.termScore(t, table);
      for (const c of this.links.comparisons)
        if (c.subject === null && c.hinted.some((h) => h.table === table)) score += 0.3;
      for (const o of this.links.orders) if (o.hinted.some((h) => h.table === table)) score += 0.3;
      // Anchors weigh most: the table that has what is aggregated is the one to read from.
      let anchored = 0;
      for (const a of anchors) {
        const s = a.asTable
          ? Math.max(0, ...a.term.tables.filter((c) => c.table === table).map((c) => c.score))
          : this.termScore(a.term, table);
        if (s > 0) anchored += 1;
      }
      return { table, score: Math.round((score + anchored * 2) * 100) / 100 };
    });
    return ranked.filter((r) => r.score > 0).sort((a, b) => b.score - a.score);
  }

  /** The best column a term names among the tables in scope (source first on ties). */
  private resolve(
    t: TermLink,
    opts: { numeric?: boolean; measure?: boolean; preferTable?: string | null } = {},
  ): Resolved | null {
    const own = this.genericKey(t);
    if (own && !opts.numeric) return own;
    let best: Resolved | null = null;
    for (const c of t.columns) {
      if (!this.scope.includes(c.table)) continue;
      const info = this.column(c);
      if (!info) continue;
      if ((opts.numeric || opts.measure) && !info.numeric) continue;
      // Ids are numbers but not amounts: nobody averages them.
      if (opts.measure && /(^|_)id$/i.test(info.column)) continue;
      let score = c.score;
      if (c.table === this.source) score += 0.01;
      if (opts.preferTable && c.table === opts.preferTable) score += 0.2;
      if (!best || score > best.score) best = { table: c.table, info, score };
    }
    return best;
  }

  /** `ids`, `their ids`: the identifying column of the rows being listed (the source's own key). */
  private genericKey(t: TermLink): Resolved | null {
    if (!t.columns.length || t.columns.some((c) => c.match !== 'generic')) return null;
    const src = this.source ? this.index.table(this.source) : undefined;
    const key = src && ownKey(src, singular);
    return key && t.columns.some((c) => c.table === src.name && c.label === key.label)
      ? { table: src.name, info: key, score: 1 }
      : null;
  }

  /** Columns of a term tied for best (`time` with two timestamps): an ambiguity to ask about. */
  private ties(t: TermLink): string[] {
    if (this.genericKey(t)) return [];
    const inScope = t.columns.filter((c) => this.scope.includes(c.table));
    const top = inScope[0]?.score ?? 0;
    const tied = inScope.filter((c) => top - c.score < TIE && c.match !== 'concept');
    const labels = [...new Set(tied.map((c) => (c.table === this.source ? c.label : `${c.table}.${c.label}`)))];
    return labels.length > 1 ? labels : [];
  }

  private ref(r: Resolved): ColumnRef {
    return {
      ...(r.table !== this.source ? { table: r.table } : {}),
      column: r.info.column,
      ...(r.info.path.length ? { path: r.info.path } : {}),
    };
  }

  /** Brings a table into scope through a join key, if one exists (SQL targets only). */
  private join(table: string): boolean {
    if (!this.source || this.scope.includes(table)) return this.scope.includes(table);
    if (this.schema.streaming) return false;
    const key = joinKeyOf(this.schema.tables, this.source, table);
    if (!key) return false;
    this.joins.set(table, key);
    this.scope.push(table);
    return true;
  }

  /** The column a table mention groups or counts by from the source (`per customer` → customer_id). */
  private keyFor(table: string): Resolved | null {
    const src = this.source ? this.index.table(this.source) : undefined;
    if (!src) return null;
    if (table === this.source) {
      // Rows of a table are its entities (per order = per row); a stream's rows are events of one.
      if (!this.schema.streaming) return null;
      const own = ownKey(src, singular);
      return own ? { table: src.name, info: own, score: 1 } : null;
    }
    const key = joinKeyOf(this.schema.tables, this.source ?? '', table);
    if (!key) return null;
    const info = src.columns.find((c) => c.column === key.left && !c.path.length);
    return info ? { table: src.name, info, score: 1 } : null;
  }

  /** `"plants" is read as power_stations`: each word the plan relies on that met its name by meaning, not spelling. */
  private meaningReadings(used: ReadonlySet<number>, source: string): string[] {
    const out: string[] = [];
    for (const t of this.links.terms) {
      const table = this.isTableMention(t);
      if (table && (used.has(t.id) || table === source)) {
        const meaning = t.tables[0]?.byMeaning;
        if (meaning) out.push(`"${t.text}" is read as the table ${table}`);
        if (meaning === 'loosely') this.doubt(`"${t.text}" only loosely means ${table}`);
        continue;
      }
      // A value said as the data spells it (`books`) is read by spelling, whatever its column words mean.
      if (!used.has(t.id) || t.values.length) continue;
      const r = this.resolve(t);
      if (!r) continue;
      const c = t.columns.find((x) => x.table === r.table && x.label === r.info.label);
      if (c?.byMeaning) out.push(`"${t.text}" is read as ${r.info.label}`);
      if (c?.byMeaning === 'loosely') this.doubt(`"${t.text}" only loosely means ${r.info.label}`);
    }
    return out;
  }

  private isTableMention(t: TermLink): string | null {
    const table = t.tables[0];
    if (!table) return null;
    const col = t.columns.find((c) => this.scope.includes(c.table));
    if (col && col.score > table.score + TIE) return null;
    return table.table;
  }

  run(): PlanProposal {
    const L = this.links;
    const ranked = this.rankTables();
    const top = ranked[0];
    const second = ranked[1];
    const unknown = L.unlinked.map((u) => u.text);
    for (const u of L.unread) this.doubt(`"${u.text}" was not understood`);
    const dataLinked = L.terms.some(
      (t) => t.columns.some((c) => c.match !== 'concept') || t.values.length || t.tables.length,
    );
    const emptySlots: PlanSlots = {
      tables: ranked,
      columns: [],
      aggregates: [],
      groupBy: [],
      filters: [],
      time: null,
      order: null,
      limit: null,
    };
    if (!top || !dataLinked) {
      return {
        table: null,
        tableCandidates: ranked,
        plan: null,
        slots: emptySlots,
        unknown,
        ambiguous: [],
        confidence: 'none',
        doubts: [],
        readings: [],
      };
    }
    const tied = second && top.score - second.score < TIE;
    this.source = top.table;
    this.scope = [top.table];
    if (tied) this.doubt(`tables ${top.table} and ${second.table} fit equally`);

    const ambiguous = this.ambiguous;
    const src = this.index.table(top.table);
    if (!src)
      return {
        table: null,
        tableCandidates: ranked,
        plan: null,
        slots: emptySlots,
        unknown,
        ambiguous,
        confidence: 'none',
        doubts: [],
        readings: [],
      };

    // Every term that names something outside the source pulls in the table that has it.
    for (const t of L.terms) {
      if (this.termScore(t, top.table) > 0) continue;
      const tables = [...new Set([...t.columns.map((c) => c.table), ...t.values.map((v) => v.table)])];
      const joinable = tables
        .map((table) => ({ table, score: this.termScore(t, table) }))
        .sort((a, b) => b.score - a.score)
        .find((x) => joinKeyOf(this.schema.tables, top.table, x.table));
      if (joinable && (t.columns.length || t.values.length)) this.join(joinable.table);
    }

    const used = new Set<number>();
    const use = (t: TermLink | undefined) => t && used.add(t.id);

    // ---- filters: values, comparisons, booleans, time ranges
    const conditions: Condition[] = [];
    const valueGroups = new Map<string, { r: Resolved; values: string[]; negated: boolean }>();
    for (const t of L.terms) {
      if (!t.values.length) continue;
      // A word that is a value and also names the table (`sensors` vs `sensor`) counts as a value
      // only when its column is in scope.
      const v = t.values.find((x) => this.scope.includes(x.table)) ?? t.values.find((x) => this.join(x.table));
      if (!v) continue;
      const bestOther = Math.max(0, ...t.tables.map((x) => x.score), ...t.columns.map((x) => x.score));
      if (bestOther > v.score + TIE) continue;
      const info = this.index.table(v.table)?.columns.find((c) => c.column === v.column && !c.path.length);
      if (!info) continue;
      const key = `${v.table}.${v.column}/${t.negated}`;
      const g = valueGroups.get(key) ?? { r: { table: v.table, info, score: v.score }, values: [], negated: t.negated };
      if (!g.values.includes(v.value)) g.values.push(v.value);
      valueGroups.set(key, g);
      use(t);
      const otherColumns = new Set(t.values.filter((x) => this.scope.includes(x.table)).map((x) => x.column));
      if (otherColumns.size > 1) ambiguous.push({ phrase: t.text, candidates: [...otherColumns] });
      // The column named next to its value (`device dev-03`, `books category`) is said already.
      for (const n of L.terms) {
        if (n.id === t.id || n.values.length) continue;
        const adjacent = n.end === t.start || n.start === t.end || n.end + 1 === t.start || n.start === t.end + 1;
        if (adjacent && n.columns.some((c) => c.column === v.column && c.table === v.table)) use(n);
      }
    }
    for (const g of valueGroups.values()) {
      const col = this.ref(g.r);
      const lits: Literal[] = g.values.map((value) => ({ kind: 'string', value }));
      if (lits.length === 1 && lits[0]) {
        conditions.push({
          kind: 'compare',
          left: { kind: 'column', ref: col },
          op: g.negated ? '!=' : '=',
          value: lits[0],
        });
      } else conditions.push({ kind: 'in', column: col, values: lits, negated: g.negated || undefined });
    }

    const having: HavingCondition[] = [];
    const elliptical: ComparisonLink[] = [];
    const owned: { c: ComparisonLink; r: Resolved; op: Exclude<ComparisonLink['op'], 'between'> }[] = [];
    const pendingHaving: { op: HavingCondition['op']; value: number; fn: Aggregate['fn'] | null; rows: boolean }[] = [];
    let previousWasComparison = false;
    for (const c of L.comparisons) {
      if (c.aggregate) {
        if (c.op !== 'between') pendingHaving.push({ op: c.op, value: c.value, fn: c.aggregate, rows: c.countsRows });
        continue;
      }
      const subject = c.subject !== null ? this.term(c.subject) : undefined;
      let r = subject ? (this.resolve(subject, { measure: true }) ?? this.resolve(subject, { numeric: true })) : null;
      if (r && subject) use(subject);
      if (!r) {
        const hinted = c.hinted.find((h) => this.scope.includes(h.table) && this.column(h)?.numeric);
        const info = hinted && this.column(hinted);
        if (hinted && info) r = { table: hinted.table, info, score: hinted.score };
      }
      if (!r) {
        // Refers back to what the request computes, if anything: decided once the aggregates are known.
        elliptical.push(c);
        continue;
      }
      if (c.owner !== null && c.op !== 'between') {
        // About the grouped thing or about the rows: decided once the grouping is known.
        owned.push({ c, r, op: c.op });
        continue;
      }
      const condition = comparisonCondition(c, this.ref(r));
      const previous = conditions[conditions.length - 1];
      if (c.orWithPrevious && previous && previousWasComparison) {
        // `temperature above 30 or humidity above 80`: either one.
        conditions[conditions.length - 1] = {
          kind: 'or',
          conditions: [...(previous.kind === 'or' ? previous.conditions : [previous]), condition],
        };
      } else conditions.push(condition);
      previousWasComparison = true;
    }

    // Only a request about time has to say which time column it means.
    const needsTime =
      L.timeRanges.length > 0 || L.timeGroups.length > 0 || L.orders.some((o) => o.key && 'time' in o.key);
    const timeColumn = needsTime ? this.timeColumn() : null;
    for (const range of L.timeRanges) {
      if (this.schema.streaming) {
        this.doubt('a stream has no date range to filter on');
        continue;
      }
      if (!timeColumn) {
        this.doubt(`no time column for "${range.text}"`);
        continue;
      }
      const left: ValueExpr = { kind: 'column', ref: this.ref(timeColumn) };
      if (range.from)
        conditions.push({ kind: 'compare', left, op: '>=', value: { kind: 'timestamp', value: range.from } });
      if (range.to) conditions.push({ kind: 'compare', left, op: '<', value: { kind: 'timestamp', value: range.to } });
    }

    // ---- aggregates
    const aggregates: { link: AggregateLink | null; agg: Aggregate }[] = [];
    const hasLimit = L.orders.some((o) => o.limit !== null);
    const orderAggregateKeys = new Set(
      L.orders.flatMap((o) => (o.key && 'aggregate' in o.key ? [o.key.aggregate] : [])),
    );
    const realAggs = L.aggregates.filter((a) => !a.superlative);
    for (const a of L.aggregates) {
      // `highest` is max() only when nothing else ranks: `the 3 highest`, `which … highest`,
      // `highest average` sort instead.
      if (a.superlative && (hasLimit || realAggs.some((x) => x.start === a.end) || !a.target)) continue;
      if (a.superlative) this.superlativeAggregates.add(a.start);
      // An aggregate word with nothing after it refers back (`with that average`, `in total`).
      if (!a.target && a.fn !== 'count' && L.aggregates.some((x) => x !== a && x.target)) continue;
      if (a.fn === 'sum' && !a.target && (realAggs.length > 1 || L.aggregates.some((x) => x.fn === 'count'))) continue;
      const agg = this.aggregateOf(a, use);
      if (agg === undefined) continue;
      if (agg === null) {
        this.doubt(`nothing to take the ${a.fn} of`);
        continue;
      }
      if (!aggregates.some((x) => sameAggregate(x.agg, agg))) aggregates.push({ link: a, agg });
      // `average temperature and humidity`: the aggregate applies to each measure of the list.
      for (const t of this.conjoinedMeasures(a)) {
        const r = this.resolve(t, { measure: true }) ?? this.resolve(t, { numeric: true });
        if (!r?.info.numeric) break;
        use(t);
        const more: Aggregate = { fn: agg.fn, arg: { kind: 'column', ref: this.ref(r) }, distinct: false };
        if (!aggregates.some((x) => sameAggregate(x.agg, more))) aggregates.push({ link: a, agg: more });
      }
    }
    void orderAggregateKeys;

    // `average temperature per device, only above 30`: a comparison that names no column of its
    // own refers back to the one measure the request aggregates, row by row (a condition on the
    // aggregate itself is said as one: `whose average is above 30`). With several measures, or
    // none, which one it means is a doubt.
    const measures = measuresOf(aggregates.map((a) => a.agg));
    for (const c of elliptical) {
      const focus = measures.length === 1 ? measures[0] : undefined;
      if (!focus) {
        this.doubt(`no column for "${c.text}"`);
        continue;
      }
      const bound = c.op === 'between' ? `between ${c.value} and ${c.high ?? c.value}` : `${c.op} ${c.value}`;
      this.readings.push(`"${c.text}" is read as ${focus.column} ${bound} for each row, before aggregating`);
      conditions.push(comparisonCondition(c, focus));
    }

    // ---- grouping
    const groupKeys: Resolved[] = [];
    const addKey = (r: Resolved | null) => {
      if (!r) return;
      if (!this.schema.streaming && r.table === this.source && ownKey(src, singular)?.label === r.info.label) return;
      if (!groupKeys.some((k) => k.table === r.table && k.info.label === r.info.label)) groupKeys.push(r);
    };
    const superlativeOrder = L.orders.some((o) => o.direction !== null && o.key !== null);
    const groupsNeeded = aggregates.length > 0 || superlativeOrder;
    const groupTerms = [...L.groups];
    // `the 3 devices with the highest average`: the ranked noun is what the rows are.
    const limitHead = this.limitHead();
    for (const g of groupTerms) {
      const head = this.term(g.term);
      if (!head) continue;
      // "which X", "each X", "every X" only group when something is computed per X.
      if ((g.cue === 'which' || g.cue === 'each' || g.cue === 'every') && !groupsNeeded) continue;
      const qualifierTables = g.qualifiers.flatMap((q) => this.term(q)?.tables.map((x) => x.table) ?? []);
      for (const q of g.qualifiers) use(this.term(q));
      for (const qt of qualifierTables) if (qt !== this.source) this.join(qt);
      const r = this.groupKey(head, qualifierTables[0] ?? null);
      use(head);
      if (r === undefined) continue;
      // "Which customers (by name)": the `by` column replaces the entity's key.
      if (g.cue === 'by' && r) {
        const i = groupKeys.findIndex(
          (k) => this.joins.has(r.table) && k.table === this.source && this.joins.get(r.table)?.left === k.info.column,
        );
        if (i >= 0) groupKeys.splice(i, 1);
      }
      if (r) addKey(r);
    }
    if (limitHead && groupsNeeded) {
      use(limitHead.term);
      for (const q of limitHead.qualifiers) use(q);
      const r = this.groupKey(limitHead.term, limitHead.qualifiers[0]?.tables[0]?.table ?? null);
      if (r && !groupKeys.length) addKey(r);
    }

    // ---- time grouping
    let time_bucket: TimeBucket | null = null;
    let window: StreamWindow | null = null;
    const tg = L.timeGroups[0];
    if (L.timeGroups.length > 1 && L.timeGroups.some((g) => g.unit !== tg?.unit)) this.doubt('several time groupings');
    if (tg) {
      if (this.schema.streaming) {
        window =
          tg.window === 'count'
            ? { kind: 'count', size: tg.size }
            : tg.window === 'sliding'
              ? { kind: 'sliding', unit: tg.unit, size: tg.size, lookahead: 0 }
              : tg.window === 'hopping'
                ? { kind: 'hopping', unit: tg.unit, size: tg.size, hop: tg.hop ?? tg.size }
                : { kind: 'tumbling', unit: tg.unit, size: tg.size };
      } else if (timeColumn) {
        time_bucket = { column: this.ref(timeColumn), unit: tg.unit, size: tg.size, as_date: tg.asDate };
      } else this.doubt(`no time column to group "${tg.text}" by`);
    }

    // Grouping with nothing aggregated: a derived amount is summed, anything else is counted.
    const grouped = groupKeys.length > 0 || time_bucket !== null || window !== null;
    if (grouped && !aggregates.length) {
      const arith = L.arithmetic[0];
      // A measure said without an aggregate word: amounts and counts add up, readings average.
      const measure = L.terms.find(
        (t) => !used.has(t.id) && !t.values.length && this.resolve(t, { measure: true }) && !this.isTableMention(t),
      );
      const r = measure && this.resolve(measure, { measure: true });
      if (arith) {
        const expr = this.exprOf(arith.expr, use);
        if (expr) aggregates.push({ link: null, agg: { fn: 'sum', arg: expr, distinct: false } });
      } else if (measure && r) {
        use(measure);
        const additive = r.info.readings.some((x) => x.words.some((w) => ADDITIVE.has(w)));
        this.doubt(`no aggregate said for "${measure.text}"`);
        aggregates.push({
          link: null,
          agg: { fn: additive ? 'sum' : 'avg', arg: { kind: 'column', ref: this.ref(r) }, distinct: false },
        });
      } else if (
        L.orders.some((o) => {
          const t = o.key && 'term' in o.key ? this.term(o.key.term) : undefined;
          return !!t && !!this.isTableMention(t);
        })
      ) {
        // "which segment has the most customers": ranked by how many rows.
        aggregates.push({ link: null, agg: { fn: 'count', arg: null, distinct: false } });
      } else if (groupKeys.length || time_bucket || window) {
        this.doubt('grouped without saying what to compute');
        aggregates.push({ link: null, agg: { fn: 'count', arg: null, distinct: false } });
      }
    }

    // ---- having
    // `sum of quantity per product, only products with more than 10 units`: a condition in a
    // clause about the grouped thing, on a measure the request aggregates, is about the aggregate.
    for (const { c, r, op } of owned) {
      const owner = c.owner !== null ? this.term(c.owner) : undefined;
      const ownerKey = owner && !this.isTableMention(owner) ? this.resolve(owner) : null;
      const aboutGroup =
        !!ownerKey && groupKeys.some((k) => k.table === ownerKey.table && k.info.label === ownerKey.info.label);
      const agg = aboutGroup
        ? aggregates.find(
            (a) => a.agg.fn !== 'count' && a.agg.arg?.kind === 'column' && a.agg.arg.ref.column === this.ref(r).column,
          )
        : undefined;
      if (agg) {
        having.push({ aggregate: agg.agg, op: c.excluded ? OPPOSITE[op] : op, value: c.value });
        continue;
      }
      conditions.push(comparisonCondition(c, this.ref(r)));
    }
    for (const h of pendingHaving) {
      if (!grouped) {
        // `customers who placed at least one order`: every row there is counts once, so the
        // condition holds already; any other condition needs a group to hold for.
        const trivial = h.rows && ((h.op === '>=' && h.value <= 1) || (h.op === '>' && h.value < 1));
        if (!trivial) this.doubt(`nothing grouped for "${h.fn ?? 'count'} ${h.op} ${h.value}" to hold for`);
        continue;
      }
      const agg: Aggregate | undefined = h.rows
        ? { fn: 'count', arg: null, distinct: false }
        : (aggregates.find((a) => a.agg.fn === h.fn)?.agg ?? aggregates[0]?.agg);
      if (agg) having.push({ aggregate: agg, op: h.op, value: h.value });
    }

    // ---- booleans said as a condition (`reported as ok`)
    for (const t of L.terms) {
      // Negated (`not ok`) or said of the rows (`ok vehicles`), a yes/no column is a condition even
      // where a list of columns is being said.
      const describesRows = L.terms.some((n) => n.start === t.end && this.isTableMention(n));
      if (used.has(t.id) || (t.projected && !t.negated && !describesRows)) continue;
      const r = this.resolve(t);
      if (r?.info.boolean && t.columns[0]?.match !== 'partial') {
        conditions.push({
          kind: 'compare',
          left: { kind: 'column', ref: this.ref(r) },
          op: '=',
          value: { kind: 'boolean', value: !t.negated },
        });
        use(t);
      }
    }

    // ---- order and limit
    const orderBy: { key: OrderKey; direction: 'asc' | 'desc' }[] = [];
    const limit = L.orders.find((o) => o.limit !== null)?.limit ?? null;
    const explicitDirection = L.orders.find(
      (o) => o.direction !== null && o.limit === null && o.key === null,
    )?.direction;
    const ranked2 = L.orders.filter(
      (o) => o.limit === null && (o.direction !== null || o.key !== null) && !this.superlativeAggregates.has(o.start),
    );
    const orderSpec = ranked2.find((o) => o.key !== null || o.hinted.length) ?? ranked2[0];
    const direction = orderSpec?.direction ?? explicitDirection ?? (limit ? 'desc' : null);
    if (orderSpec || (limit && aggregates.length)) {
      const key = this.orderKey(orderSpec ?? null, aggregates, grouped, timeColumn, use);
      // An order said without a direction (`sorted by age`) is ascending, as SQL's own default;
      // a limit without one (`5 customers by revenue`) asks for the top.
      if (key) orderBy.push({ key, direction: direction ?? (limit ? 'desc' : 'asc') });
      else if (orderSpec) this.doubt(`nothing to sort "${orderSpec.text}" on`);
      if (key && !direction && !limit && orderSpec) this.readings.push(`"${orderSpec.text}" is read as ascending`);
    }

    // ---- projections
    const select: Projection[] = [];
    if (aggregates.length || grouped) {
      for (const k of groupKeys)
        select.push({ kind: 'value', expr: { kind: 'column', ref: this.ref(k) }, alias: null });
      if (time_bucket) select.push({ kind: 'bucket', alias: null });
      for (const a of aggregates) select.push({ kind: 'aggregate', aggregate: a.agg, alias: null });
      for (const o of orderBy) {
        if (
          o.key.kind === 'aggregate' &&
          !aggregates.some((a) => sameAggregate(a.agg, (o.key as { aggregate: Aggregate }).aggregate))
        ) {
          select.push({ kind: 'aggregate', aggregate: o.key.aggregate, alias: null });
        }
      }
    } else {
      const cols: Resolved[] = [];
      const push = (r: Resolved | null) => {
        if (r && !cols.some((c) => c.table === r.table && c.info.label === r.info.label)) cols.push(r);
      };
      if (limitHead && !this.isTableMention(limitHead.term)) {
        push(this.resolve(limitHead.term));
        use(limitHead.term);
      }
      for (const t of L.terms) {
        if (!t.projected || used.has(t.id) || t.values.length) continue;
        if (t.negated && !this.resolve(t)?.info.boolean) {
          // `trips without tips`: a condition whose value is not said (0? no value at all?).
          this.doubt(`"${t.text}" said absent, with no value to compare`);
          use(t);
          continue;
        }
        if (L.arithmetic.some((a) => termsOf(a.expr).includes(t.id))) continue;
        const table = this.isTableMention(t);
        if (table === this.source || (table && !t.columns.some((c) => this.scope.includes(c.table)))) continue;
        if (t.columns.every((c) => c.match === 'concept')) continue;
        const r = this.resolve(t);
        if (!r) continue;
        const ties = this.ties(t);
        if (ties.length) ambiguous.push({ phrase: t.text, candidates: ties });
        push(r);
        use(t);
      }
      for (const c of cols) select.push({ kind: 'value', expr: { kind: 'column', ref: this.ref(c) }, alias: null });
      for (const a of L.arithmetic) {
        const expr = this.exprOf(a.expr, use);
        if (expr) select.push({ kind: 'value', expr, alias: a.defines[0] ?? null });
      }
    }
    const distinct =
      !aggregates.length &&
      !grouped &&
      (L.distinct || (!!limitHead && !this.isTableMention(limitHead.term) && select.length > 0));

    // ---- what stayed unexplained
    for (const t of L.terms) {
      if (used.has(t.id)) continue;
      const table = t.tables[0]?.table;
      if (
        table &&
        (table === this.source || this.scope.includes(table) || t.tables[0].score >= (t.columns[0]?.score ?? 0))
      )
        continue;
      if (
        t.columns.length &&
        t.columns.every((c) => c.match === 'concept' || c.match === 'stem' || c.match === 'generic')
      )
        continue;
      // A verb form naming a column (`installed` ~ installed_at) says how, not what to show.
      if (t.end - t.start === 1 && /(ed|ing)$/i.test(t.text) && t.columns.every((c) => c.match !== 'exact')) continue;
      if (t.columns.some((c) => c.match === 'partial' && c.score < 0.6)) continue;
      // Said again (`each name once`, `belongs to a site`): the first mention has the role.
      const again = this.resolve(t);
      if (again && L.terms.some((u) => used.has(u.id) && this.resolve(u)?.info.label === again.info.label)) continue;
      // A column said outside any list, condition or aggregate: the model should place it.
      if (t.columns.length && !t.projected) this.doubt(`"${t.text}" has no role`);
    }
    if (this.joins.size && this.schema.streaming) this.doubt('streams cannot be joined');
    for (const g of L.groups) {
      const quantifier = g.cue === 'which' || g.cue === 'each' || g.cue === 'every';
      if (!used.has(g.term) && !(quantifier && !groupsNeeded)) this.doubt(`group "${g.text}" unresolved`);
    }

    const where: Condition | null =
      conditions.length === 0 ? null : conditions.length === 1 ? (conditions[0] ?? null) : { kind: 'and', conditions };
    const joins = [...this.joins].map(([table, key]) => ({
      table,
      kind: 'inner' as const,
      on: [{ left: { table: this.source ?? '', column: key.left }, right: { table, column: key.right } }],
    }));
    const plan: QueryPlanInput = {
      source: top.table,
      joins,
      select,
      distinct,
      where,
      group_by: groupKeys.map((k) => this.ref(k)),
      time_bucket,
      window,
      having,
      order_by: orderBy,
      limit,
    };

    this.readings.push(...this.meaningReadings(used, top.table));
    const slots = this.slots(
      ranked,
      where,
      groupKeys,
      aggregates.map((a) => a.agg),
      tg ?? null,
      limit,
      orderBy[0] ?? null,
    );
    // "show all devices": naming the table is asking for its rows.
    const tableNamed = L.terms.some((t) => this.isTableMention(t) === top.table && t.projected);
    const nothingAsked = !select.length && !where && !aggregates.length && !orderBy.length && !limit && !tableNamed;
    const conclusive = !tied && !unknown.length && !ambiguous.length && !this.notes.length && !nothingAsked;
    // A plan that asks nothing, or that had to guess around words naming nothing, is no plan.
    const usable = !tied && !nothingAsked && !(unknown.length && this.notes.length);
    return {
      table: tied ? null : top.table,
      tableCandidates: ranked,
      plan: usable ? plan : null,
      slots,
      unknown,
      ambiguous,
      confidence: conclusive ? 'high' : 'partial',
      doubts: [...this.notes],
      readings: [...this.readings],
    };
  }

  /**
   * The terms listed after an aggregate's own (`temperature and humidity`, `a, b and c`) that have
   * no aggregate of their own and name no table or value: the aggregate is said once for them all.
   */
  private conjoinedMeasures(a: AggregateLink): TermLink[] {
    if (a.fn === 'count' || !a.target || !('term' in a.target)) return [];
    const L = this.links;
    const out: TermLink[] = [];
    let current = this.term(a.target.term);
    while (current) {
      let k = current.end;
      const joiner = (L.tokens[k] ?? '').toLowerCase();
      if (joiner !== 'and' && joiner !== ',') break;
      k++;
      if (joiner === ',' && (L.tokens[k] ?? '').toLowerCase() === 'and') k++;
      const next = L.terms.find((t) => t.start === k);
      if (
        !next ||
        !next.projected ||
        next.values.length ||
        this.isTableMention(next) ||
        L.aggregates.some((x) => x !== a && x.target && 'term' in x.target && x.target.term === next.id) ||
        L.groups.some((g) => g.term === next.id)
      )
        break;
      out.push(next);
      current = next;
    }
    return out;
  }

  /** `the 3 devices with …`, `the 10 most recent orders`: the noun a limit ranks. */
  private limitHead(): { term: TermLink; qualifiers: TermLink[] } | null {
    const limit = this.links.orders.find((o) => o.limit !== null);
    if (!limit) return null;
    const terms = this.links.terms.filter((t) => t.start >= limit.end && t.start <= limit.end + 3 && !t.values.length);
    let head = terms[0];
    if (!head) return null;
    const qualifiers: TermLink[] = [];
    for (
      let next = this.links.terms.find((t) => t.start === head?.end);
      next && !next.values.length;
      next = this.links.terms.find((t) => t.start === next?.end)
    ) {
      qualifiers.push(head);
      head = next;
    }
    return { term: head, qualifiers };
  }

  /** What a grouping word groups by; undefined = nothing to group (the rows themselves). */
  private groupKey(head: TermLink, preferTable: string | null): Resolved | null | undefined {
    const table = this.isTableMention(head);
    if (table && !(preferTable && head.columns.some((c) => c.table === preferTable))) {
      // `per device` groups by the source's device_id: no join needed for the key itself.
      const key = this.keyFor(table);
      if (key) return key;
      if (table === this.source) return undefined;
      this.join(table);
    }
    if (preferTable && preferTable !== this.source) this.join(preferTable);
    const r = this.resolve(head, { preferTable });
    if (!r) {
      this.doubt(`no column to group "${head.text}" by`);
      return null;
    }
    return r;
  }

  private aggregateOf(a: AggregateLink, use: (t: TermLink | undefined) => void): Aggregate | null | undefined {
    const target = a.target;
    if (target && 'arithmetic' in target) {
      const arith = this.links.arithmetic[target.arithmetic];
      const expr = arith && this.exprOf(arith.expr, use);
      if (!expr) return null;
      return { fn: a.fn === 'count' ? 'sum' : a.fn, arg: expr, distinct: false };
    }
    const t = target ? this.term(target.term) : undefined;
    if (a.fn === 'count') {
      if (!t) return { fn: 'count', arg: null, distinct: false };
      const table = this.isTableMention(t);
      if (a.distinct) {
        const r = this.resolve(t) ?? (table ? this.keyFor(table) : null);
        use(t);
        if (r) return { fn: 'count', arg: { kind: 'column', ref: this.ref(r) }, distinct: true };
      }
      if (table || a.countsRows) {
        use(t);
        if (table && table !== this.source && !this.scope.includes(table))
          this.doubt(`counting ${table} from ${this.source}`);
        return { fn: 'count', arg: null, distinct: false };
      }
      // `how many units`: a count of a measured amount is its sum.
      const r = this.resolve(t);
      use(t);
      if (r?.info.numeric && !/(^|_)id$/i.test(r.info.column))
        return { fn: 'sum', arg: { kind: 'column', ref: this.ref(r) }, distinct: false };
      if (r) return { fn: 'count', arg: { kind: 'column', ref: this.ref(r) }, distinct: false };
      return { fn: 'count', arg: null, distinct: false };
    }
    if (!t) return a.fn === 'sum' ? undefined : null;
    const r = this.resolve(t, { measure: true }) ?? this.resolve(t);
    if (!r) return null;
    use(t);
    const ties = this.ties(t);
    if (ties.length > 1) this.doubt(`"${t.text}" could be ${ties.join(' or ')}`);
    if (!r.info.numeric && !r.info.temporal) this.doubt(`${a.fn} of a non-numeric column`);
    return { fn: a.fn, arg: { kind: 'column', ref: this.ref(r) }, distinct: a.distinct };
  }

  private exprOf(n: ArithmeticNode, use: (t: TermLink | undefined) => void): ValueExpr | null {
    const side = (s: ArithmeticNode['left']): ValueExpr | null => {
      if ('number' in s) return { kind: 'number', value: s.number };
      if ('node' in s) return this.exprOf(s.node, use);
      const t = this.term(s.term);
      const r = t && (this.resolve(t, { numeric: true }) ?? this.resolve(t));
      if (!r) return null;
      use(t);
      return { kind: 'column', ref: this.ref(r) };
    };
    const left = side(n.left);
    const right = side(n.right);
    return left && right ? { kind: 'arith', op: n.op, left, right } : null;
  }

  private orderKey(
    o: Links['orders'][number] | null,
    aggregates: { link: AggregateLink | null; agg: Aggregate }[],
    grouped: boolean,
    timeColumn: Resolved | null,
    use: (t: TermLink | undefined) => void,
  ): OrderKey | null {
    const measure = (expr: ValueExpr): OrderKey => {
      if (!grouped) return { kind: 'value', expr };
      const same = aggregates.find((a) => a.agg.arg && JSON.stringify(a.agg.arg) === JSON.stringify(expr));
      return {
        kind: 'aggregate',
        aggregate: same?.agg ?? { fn: o?.direction === 'asc' ? 'min' : 'max', arg: expr, distinct: false },
      };
    };
    const key = o?.key ?? null;
    if (key && 'aggregate' in key) {
      const link = this.links.aggregates[key.aggregate];
      const found = aggregates.find((a) => a.link === link);
      if (found) return { kind: 'aggregate', aggregate: found.agg };
      const agg = link && this.aggregateOf(link, use);
      if (agg) return { kind: 'aggregate', aggregate: agg };
    }
    if (key && 'arithmetic' in key) {
      const a = this.links.arithmetic[key.arithmetic];
      const expr = a && this.exprOf(a.expr, use);
      if (expr) {
        if (!grouped) return { kind: 'value', expr };
        const same = aggregates.find((x) => x.agg.arg && JSON.stringify(x.agg.arg) === JSON.stringify(expr));
        return { kind: 'aggregate', aggregate: same?.agg ?? { fn: 'sum', arg: expr, distinct: false } };
      }
    }
    if (key && 'time' in key && timeColumn)
      return { kind: 'value', expr: { kind: 'column', ref: this.ref(timeColumn) } };
    if (key && 'term' in key) {
      const t = this.term(key.term);
      if (t) {
        const table = this.isTableMention(t);
        if (table && grouped) {
          use(t);
          return { kind: 'aggregate', aggregate: { fn: 'count', arg: null, distinct: false } };
        }
        const r = this.resolve(t, { numeric: true });
        if (r) {
          use(t);
          return measure({ kind: 'column', ref: this.ref(r) });
        }
      }
    }
    const hinted = o?.hinted.find((h) => this.scope.includes(h.table));
    const info = hinted && this.column(hinted);
    if (hinted && info) return measure({ kind: 'column', ref: this.ref({ table: hinted.table, info, score: 1 }) });
    const first = aggregates[0];
    if (first) return { kind: 'aggregate', aggregate: first.agg };
    return null;
  }

  /** The source's time column: one the request names, else the only (or first) temporal one. */
  private timeColumn(): Resolved | null {
    const src = this.source ? this.index.table(this.source) : undefined;
    if (!src) return null;
    const temporal = src.columns.filter((c) => isTemporalType(c.type));
    const candidates = temporal.length ? temporal : src.columns.filter(looksTemporal);
    // The time column a phrase names (`pickup time`, `installed`), unless it fits several equally.
    let named: ColumnCandidate | undefined;
    for (const t of this.links.terms) {
      const temporal = t.columns.filter((c) => c.table === src.name && candidates.some((x) => x.label === c.label));
      const top = temporal[0];
      if (!top) continue;
      const tied = temporal.filter((c) => top.score - c.score < TIE);
      if (tied.length > 1) {
        this.ambiguous.push({ phrase: t.text, candidates: tied.map((c) => c.label) });
        continue;
      }
      named ??= top;
    }
    const info = (named && candidates.find((x) => x.label === named.label)) ?? candidates[0];
    if (candidates.length > 1 && !named) this.doubt(`which time column: ${candidates.map((c) => c.label).join(', ')}`);
    return info ? { table: src.name, info, score: 1 } : null;
  }

  private slots(
    ranked: { table: string; score: number }[],
    where: Condition | null,
    groupKeys: Resolved[],
    aggregates: Aggregate[],
    tg: Links['timeGroups'][number] | null,
    limit: number | null,
    order: { key: OrderKey; direction: 'asc' | 'desc' } | null,
  ): PlanSlots {
    const label = (r: { table: string; label: string }) =>
      r.table === this.source ? r.label : `${r.table}.${r.label}`;
    const columns: SlotColumn[] = [];
    for (const t of this.links.terms) {
      for (const c of t.columns) {
        if (!this.scope.includes(c.table) && c.table !== this.source) continue;
        if (!columns.some((x) => x.table === c.table && x.label === c.label)) {
          columns.push({
            table: c.table,
            column: c.column,
            ...(c.path ? { path: c.path } : {}),
            label: c.label,
            score: c.score,
          });
        }
      }
    }
    columns.sort((a, b) => b.score - a.score);
    const exprLabel = (e: ValueExpr | null | undefined): string =>
      !e
        ? '*'
        : e.kind === 'column'
          ? [
              e.ref.table && e.ref.table !== this.source ? `${e.ref.table}.` : '',
              [e.ref.column, ...(e.ref.path ?? [])].join('->'),
            ].join('')
          : e.kind === 'number'
            ? String(e.value)
            : `(${exprLabel(e.left)} ${e.op} ${exprLabel(e.right)})`;
    const filters: PlanSlots['filters'] = [];
    const flat = !where ? [] : where.kind === 'and' ? where.conditions : [where];
    for (const c of flat) {
      if (c.kind === 'compare') filters.push({ column: exprLabel(c.left), op: c.op, values: [c.value.value] });
      else if (c.kind === 'in')
        filters.push({
          column: exprLabel({ kind: 'column', ref: c.column }),
          op: c.negated ? 'not_in' : 'in',
          values: c.values.map((v) => v.value),
        });
      else if (c.kind === 'between')
        filters.push({
          column: exprLabel({ kind: 'column', ref: c.column }),
          op: 'between',
          values: [c.low.value, c.high.value],
        });
    }
    const orderBy =
      order === null
        ? null
        : {
            by:
              order.key.kind === 'aggregate'
                ? `${order.key.aggregate.fn}(${exprLabel(order.key.aggregate.arg)})`
                : order.key.kind === 'value'
                  ? exprLabel(order.key.expr)
                  : `#${order.key.index}`,
            direction: order.direction,
          };
    return {
      tables: ranked,
      columns,
      aggregates: aggregates.map((a) => ({ fn: a.fn, of: exprLabel(a.arg), distinct: a.distinct ?? false })),
      groupBy: groupKeys.map((k) => ({
        table: k.table,
        column: k.info.column,
        ...(k.info.path.length ? { path: k.info.path } : {}),
        label: label({ table: k.table, label: k.info.label }),
        score: k.score,
      })),
      filters,
      time: tg ? { unit: tg.unit, size: tg.size, window: tg.window } : null,
      order: orderBy,
      limit,
    };
  }
}

function termsOf(n: ArithmeticNode): number[] {
  const side = (s: ArithmeticNode['left']): number[] => ('term' in s ? [s.term] : 'node' in s ? termsOf(s.node) : []);
  return [...side(n.left), ...side(n.right)];
}

function sameAggregate(a: Aggregate, b: Aggregate): boolean {
  return a.fn === b.fn && !!a.distinct === !!b.distinct && JSON.stringify(a.arg) === JSON.stringify(b.arg);
}

/** The distinct columns the aggregates take a value of (count excluded): what a request measures. */
function measuresOf(aggregates: readonly Aggregate[]): ColumnRef[] {
  const out: ColumnRef[] = [];
  for (const a of aggregates) {
    if (a.fn === 'count' || a.arg?.kind !== 'column') continue;
    const ref = a.arg.ref;
    if (!out.some((r) => r.table === ref.table && r.column === ref.column)) out.push(ref);
  }
  return out;
}

/** The condition a comparison says, the opposite one when it names rows to leave out. */
function comparisonCondition(c: ComparisonLink, column: ColumnRef): Condition {
  const said: Condition =
    c.op === 'between'
      ? {
          kind: 'between',
          column,
          low: { kind: 'number', value: c.value },
          high: { kind: 'number', value: c.high ?? c.value },
        }
      : { kind: 'compare', left: { kind: 'column', ref: column }, op: c.op, value: { kind: 'number', value: c.value } };
  if (!c.excluded) return said;
  if (said.kind === 'compare') return { ...said, op: OPPOSITE[said.op] };
  return { kind: 'not', condition: said };
}

const OPPOSITE: Record<CompareOp, CompareOp> = { '>': '<=', '<=': '>', '<': '>=', '>=': '<', '=': '!=', '!=': '=' };
