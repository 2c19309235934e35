import type {
  Aggregate,
  Join,
  CompareOp,
  Condition,
  ExtremePerGroup,
  HavingCondition,
  OrderKey,
  Projection,
  StreamWindow,
  TimeBucket,
} from '@nl2p/query-plan';
import type { ColumnInfo, SchemaIndex } from '../schema-index';
import type { AggregateLink, ComparisonLink, LinkSchema, Links, TermLink } from '../types';

/** A column a term was resolved to, in a table in scope. */
export interface Resolved {
  table: string;
  info: ColumnInfo;
  score: number;
}

/** Rows of another table said absent: the NOT EXISTS condition and the joins that reach them. */
export interface AbsentRows {
  condition: Extract<Condition, { kind: 'exists' }>;
  /** From the source on: the first is the table the sub-query reads. */
  path: Join[];
  /** Where the negation's phrase begins (the first term said absent): what is said after it lies inside. */
  start: number;
}

/** An aggregate of the plan, with the link that said it (none when the reading added it). */
export interface ProposedAggregate {
  link: AggregateLink | null;
  agg: Aggregate;
}

/** A comparison said in a clause about a noun (`products with more than 10 units`): HAVING or WHERE, once grouped. */
export interface OwnedComparison {
  c: ComparisonLink;
  r: Resolved;
  op: Exclude<ComparisonLink['op'], 'between'>;
}

/** A comparison on an aggregate (`whose average is above 25`, `more than 5 orders`), once grouped. */
export interface PendingHaving {
  op: HavingCondition['op'];
  value: number;
  fn: Aggregate['fn'] | null;
  /** A count of rows. */
  rows: boolean;
}

/** `the 3 devices with …`: the noun a limit ranks, and the nouns before it that narrow it. */
export interface LimitHead {
  term: TermLink;
  qualifiers: TermLink[];
}

/**
 * What the readings know about one request, filled in rule by rule (see READING_RULES): the plan's
 * parts as they are decided, the terms each rule used, and the doubts and readings to report.
 */
export interface ReadingState {
  readonly links: Links;
  readonly schema: LinkSchema;
  readonly index: SchemaIndex;
  /** Doubts that keep the proposal from being conclusive. */
  readonly doubts: string[];
  /** How words that read more than one way were read (shown to the person with the answer). */
  readonly readings: string[];
  /** Words that link to several things equally. */
  readonly ambiguous: { phrase: string; candidates: string[] }[];
  /** Content words that name nothing in the data. */
  readonly unknown: string[];
  /** Set by a rule when nothing in the data is named: no table, no plan; the rules after it do not run. */
  none: boolean;
  /** The tables the words point at, best first. */
  ranked: { table: string; score: number }[];
  /** Two tables fit equally: the source is a guess. */
  tied: boolean;
  /** The table the plan reads from. */
  source: string | null;
  /** The source and the tables joined to it. */
  scope: string[];
  /**
   * Joined tables and the key each is joined on: `left` is a column of `from` (the source, or a
   * table joined before it on a path through a bridge table).
   */
  readonly joins: Map<string, { left: string; right: string; from?: string }>;
  /** The terms some part of the plan took (by id). */
  readonly used: Set<number>;
  /** Row conditions, ANDed. */
  conditions: Condition[];
  /**
   * `both A and B`: the plan is asked once per condition, and the answers intersected; the plan's
   * own conditions hold the first (conclusion builds one plan per other, in the first's place).
   */
  intersect: { first: Condition; others: Condition[] } | null;
  /** Rows said absent (absence): the NOT EXISTS condition and the join path from the source to them. */
  readonly absent: AbsentRows[];
  /** `home cities except for those having a driver older than 40`: the rows whose answer is taken away (EXCEPT). */
  excepted: Condition[] | null;
  /** The row condition each comparison became, for the readings that combine them (`both …`). */
  readonly comparedBy: Map<ComparisonLink, Condition>;
  having: HavingCondition[];
  /** Comparisons naming no column: they refer back to what is aggregated. */
  elliptical: ComparisonLink[];
  owned: OwnedComparison[];
  pendingHaving: PendingHaving[];
  /** The time column, when the request is about time. */
  timeColumn: Resolved | null;
  aggregates: ProposedAggregate[];
  /** Superlatives read as max()/min() rather than as an ordering (by their start token). */
  readonly superlativeAggregates: Set<number>;
  /** `by number of sales` on rows: counts said of a column that holds the number per row (aggregates). */
  readonly rowFigures: Set<AggregateLink>;
  groupKeys: Resolved[];
  /** Group keys not shown: an entity's key grouping rows shown by its name (counted-entities). */
  unshownKeys: Resolved[];
  /** Entities ranked by a count, said in the singular: one answer (counted-entities). */
  oneEntity: boolean;
  /** Something is computed per group (a quantifier such as `which X` only groups then). */
  groupsNeeded: boolean;
  limitHead: LimitHead | null;
  timeBucket: TimeBucket | null;
  window: StreamWindow | null;
  orderBy: { key: OrderKey; direction: 'asc' | 'desc' }[];
  limit: number | null;
  /** The rows holding their group's extreme (`for each team, the oldest player`). */
  extreme: ExtremePerGroup | null;
  /** Rows skipped before the limit (`the second highest`). */
  offset: number;
  select: Projection[];
  distinct: boolean;
}

/** One reading: a named step that decides a part of the plan. */
export interface ReadingRule {
  name: string;
  apply(state: ReadingState): void;
}

export function newReadingState(links: Links, schema: LinkSchema, index: SchemaIndex): ReadingState {
  return {
    links,
    schema,
    index,
    doubts: [],
    readings: [],
    ambiguous: [],
    unknown: links.unlinked.map((u) => u.text),
    none: false,
    ranked: [],
    tied: false,
    source: null,
    scope: [],
    joins: new Map(),
    used: new Set(),
    conditions: [],
    intersect: null,
    absent: [],
    excepted: null,
    comparedBy: new Map(),
    having: [],
    elliptical: [],
    owned: [],
    pendingHaving: [],
    timeColumn: null,
    aggregates: [],
    superlativeAggregates: new Set(),
    rowFigures: new Set(),
    groupKeys: [],
    unshownKeys: [],
    oneEntity: false,
    groupsNeeded: false,
    limitHead: null,
    timeBucket: null,
    window: null,
    orderBy: [],
    limit: null,
    extreme: null,
    offset: 0,
    select: [],
    distinct: false,
  };
}

/** Grouped: by keys, a time bucket or a window. */
export function isGrouped(s: ReadingState): boolean {
  return s.groupKeys.length > 0 || s.timeBucket !== null || s.window !== null;
}

/** The opposite comparison (`excluding … below 0` keeps `>= 0`). */
export const OPPOSITE: Record<CompareOp, CompareOp> = {
  '>': '<=',
  '<=': '>',
  '<': '>=',
  '>=': '<',
  '=': '!=',
  '!=': '=',
};
