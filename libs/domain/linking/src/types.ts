import type { Column } from '@nl2p/envelope';
import type {
  AggregateFn,
  ElapsedUnit,
  ArithmeticOp,
  CompareOp,
  QueryPlanInput,
  RelativeMoment,
  TimeUnit,
  TextMatch,
} from '@nl2p/query-plan';

/** What the linker knows about the data a request may be about. */
export interface LinkSchema {
  /** Every table or stream and its columns (`Column.fields` = struct fields). */
  tables: Record<string, Column[]>;
  /** Table → text column → its distinct values (low-cardinality columns only). */
  values?: Record<string, Record<string, string[]>>;
  /** veloFlux: time grouping is a window. SQL targets: a time bucket. */
  streaming: boolean;
  /** SQL targets: what the database's comments say of tables (`COMMENT ON TABLE`); columns carry their own. */
  comments?: Record<string, string>;
  /** SQL targets: the keys tables declare, for join paths (`findJoinPath`). */
  keys?: Record<
    string,
    { primaryKey?: string[]; foreignKeys?: { columns: string[]; references: { table: string; columns: string[] } }[] }
  >;
}

/** Where in the request a link was found: token positions [start, end) and the words. */
export interface Span {
  start: number;
  end: number;
  text: string;
}

/** How a name was met through meaning: `closely` (a synonym, an attribute), `loosely` (a broader or narrower word). */
export type Meaning = 'closely' | 'loosely';

/** `related`: by meaning (WordNet), not spelling; a turn that relies on one says so. */
export type MatchKind = 'exact' | 'plural' | 'abbreviation' | 'partial' | 'stem' | 'related' | 'concept' | 'generic';

export interface TableCandidate {
  table: string;
  score: number;
  match: MatchKind;
  /** Met through a word's meaning (WordNet), not its spelling: a turn that relies on it says so. */
  byMeaning?: Meaning;
}

export interface ColumnCandidate {
  table: string;
  column: string;
  /** Struct fields below `column`. */
  path?: string[];
  /** `column` or `column->field`: how plan slots name it. */
  label: string;
  score: number;
  match: MatchKind;
  /** Met through a word's meaning (WordNet), not its spelling: a turn that relies on it says so. */
  byMeaning?: Meaning;
}

export interface ValueCandidate {
  table: string;
  column: string;
  value: string;
  score: number;
}

/**
 * A phrase of the request that names data: a table, a column, a value of a column, or several
 * of these (`device` is the `devices` table and the `device_id` columns). Candidates best first.
 */
export interface TermLink extends Span {
  id: number;
  tables: TableCandidate[];
  columns: ColumnCandidate[];
  values: ValueCandidate[];
  /** Inside a negation (`not`, `neither … nor`, `except`). */
  negated: boolean;
  /** Inside a part of the request that lists what to show (`show X and Y`, `: X, Y`, `with the X`). */
  projected: boolean;
}

/** A number with its unit (`30 degrees`, `40 percent`, `120`). */
export interface NumberLink extends Span {
  value: number;
  unit: string | null;
  /** Columns the unit evokes (`degrees` → temperature columns). */
  unitColumns: ColumnCandidate[];
}

/** A comparison (`above 30 degrees`, `at least 4`, `between 10 and 20`). */
export interface ComparisonLink extends Span {
  op: CompareOp | 'between';
  value: number;
  high: number | null;
  unit: string | null;
  /** The term the comparison is about (`quantity` in `a quantity of at least 4`), if one is near. */
  subject: number | null;
  /** Columns the unit or comparative evokes when no term is near (`faster than` → speed). */
  hinted: ColumnCandidate[];
  /** About an aggregate (`whose average is above 25`, `more than 5 orders`): a HAVING. */
  aggregate: AggregateFn | null;
  /** `more than 5 orders`: the counted thing is the table itself. */
  countsRows: boolean;
  /** The noun whose clause the comparison is in (`products` in `products with more than 10 units`). */
  owner: number | null;
  /** Said of rows to leave out (`excluding readings below 0`): the condition kept is the opposite. */
  excluded: boolean;
  /** Joined to the comparison before it by `or`. */
  orWithPrevious: boolean;
}

export interface AggregateLink extends Span {
  fn: AggregateFn;
  distinct: boolean;
  /** The term or arithmetic it applies to, if one follows in the same clause. */
  target: { term: number } | { arithmetic: number } | null;
  /** `how many X` with X a table (or nothing): count rows. */
  countsRows: boolean;
  /** A superlative (`highest`, `lowest`) that may mean ORDER BY rather than max/min. */
  superlative: boolean;
}

/** A time range on the request (`in February 2024`, `last 7 days`), half-open [from, to). */
export interface TimeRangeLink extends Span {
  from: string | null;
  to: string | null;
  /**
   * Said relative to today (`the last 30 days`, `this month`): each bound as the day the query
   * runs computes it (null: open), `from` and `to` being those bounds on the day it was read.
   */
  relative?: { from: RelativeMoment | null; to: RelativeMoment | null };
  /**
   * Times of day said with no day (`between 9am and 5pm`): the hours of any day, [from, to) in
   * whole hours, rather than a day the request does not name; `from`/`to` are then null.
   */
  hours?: { from: number; to: number };
  /** Times of day with minutes and no day said (`between 12:30 and 18:00`): read as today, which the request did not say. */
  dayUnsaid?: boolean;
  /** Verbs or nouns near it that may pick the time column (`placed`, `installed`). */
  hint: string[];
}

/** Days of the week said as a condition (`on weekends`, `on Mondays and Wednesdays`): 0 = Sunday … 6 = Saturday. */
export interface WeekDaysLink extends Span {
  days: number[];
  /** The day names, as a column of day names would hold them (`Saturday`, `Sunday`). */
  names: string[];
}

/** Time grouping: a bucket (SQL) or a window (streams). */
export interface TimeGroupLink extends Span {
  unit: TimeUnit;
  size: number;
  window: 'tumbling' | 'sliding' | 'count' | 'hopping' | null;
  hop: number | null;
  /** `the day as a date`, `the day's date`. */
  asDate: boolean;
}

/** A grouping cue (`per X`, `for each X`, `by X`, `which X`). */
export interface GroupLink extends Span {
  cue: string;
  /** The term grouped on: the head of a compound (`country` in `customer country`). */
  term: number;
  /** Terms before the head that narrow it (`customer` in `customer country`). */
  qualifiers: number[];
}

/** Ordering and limits (`top 3`, `the 3 highest`, `newest first`, `which X has the most`). */
export interface OrderLink extends Span {
  direction: 'asc' | 'desc' | null;
  limit: number | null;
  /** Rows ranked before the ones asked for (`the second highest`: LIMIT 1 OFFSET 1). */
  offset?: number;
  /** Said as a superlative (`the oldest`), not as a sort (`sorted by age`): it singles rows out. */
  superlative?: true;
  /** What it sorts on, when said: a term, an aggregate, an arithmetic, a time column, or a name shown. */
  key: { term: number } | { aggregate: number } | { arithmetic: number } | { time: true } | { text: true } | null;
  /** Columns the superlative evokes (`hottest` → temperature). */
  hinted: ColumnCandidate[];
}

export interface ArithmeticNode {
  op: ArithmeticOp;
  left: { term: number } | { number: number } | { node: ArithmeticNode };
  right: { term: number } | { number: number };
  /**
   * The time from `right` to `left`, in `unit`s (`the number of days between the sale date and
   * the payment date`), rather than a difference of numbers; `columns`: the two columns when one
   * word names both (`session duration`: session_start_ts to session_end_ts).
   */
  elapsed?: {
    unit: ElapsedUnit;
    columns?: { table: string; from: string; to: string };
    /** The table a side's words name before its column (`payment received date`: payments_received). */
    tables?: { from?: string; to?: string };
  };
}

/** `quantity times unit price`, `fare minus tip`. `defines` = words it names (`revenue`). */
export interface ArithmeticLink extends Span {
  id: number;
  expr: ArithmeticNode;
  defines: string[];
}

/** Everything the request's words were found to mean. */
/**
 * A verb that says how two things the request names are related (`authors associated with
 * domains`, `restaurants that serve Italian food`): the join or the row realises it.
 */
export interface RelationLink extends Span {
  /** The term before the verb, and the one after it (null: a pronoun, `associated with them`). */
  subject: number;
  object: number | null;
}

/** A match on text (`names containing 'Ha'`, `starting with the letter J`): LIKE/ILIKE on a column. */
export interface TextMatchLink extends Span {
  match: TextMatch;
  value: string;
  /** The term naming the column matched, when said. */
  subject: number | null;
}

/**
 * `both A and B`: values of one column each of which the rows must have (an intersection), or
 * conditions each of which some of the rows must meet (`types with both ships over 6000 tons and
 * ships under 4000`: the comparisons, by index in `comparisons`).
 */
export interface AllOfLink extends Span {
  terms: number[];
  comparisons?: number[];
  /** Words that say it other than `both` (`shared by`, `common to`): read, so accounted for. */
  cue?: Span;
}

/**
 * A comparison with an aggregate of a set rather than with a number (`priced above the average`,
 * `a balance below the largest balance`): a sub-query computes the other side.
 */
export interface SetComparisonLink extends Span {
  op: CompareOp;
  /** The aggregate said after the cue (its index in `aggregates`): what the set is reduced to. */
  aggregate: number;
  /** The set's measure (`price` in `above the average price`); null when the aggregate names none. */
  target: number | null;
  /** The term compared (`balance` in `whose balance is below the average`), when said before the cue. */
  subject: number | null;
}

/**
 * A comparison with every (or any) member of a set (`older than every manager`, `priced above all
 * books`): each value of the set is compared (`> ALL`).
 */
export interface QuantifiedComparisonLink extends Span {
  op: CompareOp;
  quantifier: 'all' | 'any';
  /** The set's noun: a table (`managers`) or a value of a column (`engineer`). */
  set: number;
  /** The measure compared, said before the cue (`whose salary is higher than …`). */
  subject: number | null;
  /** Columns the comparative evokes when no measure is said (`older` → age). */
  hinted: ColumnCandidate[];
}

/**
 * A figure that divides one part of the data by another (`the ratio of open businesses to closed
 * ones`, `what percentage of orders were returned`): each side is said in words of its own, read
 * as its own request and composed into one plan (readings/compositions/ratios).
 */
export interface RatioLink extends Span {
  /** What is divided, and what it is divided by (for `percentage of X that …`: X alone, the whole). */
  numerator: RatioSide;
  denominator: RatioSide;
  /** 100 for a percentage, 1 for a ratio, proportion, share or fraction (and a difference). */
  scale: 1 | 100;
  /** `/` for a ratio or share, `-` for a difference (`the difference between the highest and the lowest price`). */
  op: '/' | '-';
  /** The denominator is said as the whole (`of all restaurants`, `percentage of orders that …`): its conditions hold for both sides. */
  whole: boolean;
  /** The cue words (`ratio of`, `to`): all the link itself consumes; each side's words are read by their own links. */
  cues: Span[];
}

/** One side of a ratio: its words, and the aggregate to read them with when none is said. */
export interface RatioSide extends Span {
  /** `count`: rows said (`restaurants with …`); `sum`: a measure said (`the population of …`); null: the side says its own aggregate. */
  implied: 'count' | 'sum' | null;
}

export interface Links {
  text: string;
  /** What relative dates (`last 7 days`) were read against (ISO), so a part of the request read again reads them alike. */
  now?: string;
  tokens: string[];
  terms: TermLink[];
  allOf: AllOfLink[];
  relations: RelationLink[];
  textMatches: TextMatchLink[];
  numbers: NumberLink[];
  comparisons: ComparisonLink[];
  /** Comparisons with an aggregate of a set (`above the average price`). */
  setComparisons: SetComparisonLink[];
  /** Comparisons with every member of a set (`older than every manager`). */
  quantifiedComparisons: QuantifiedComparisonLink[];
  aggregates: AggregateLink[];
  groups: GroupLink[];
  timeRanges: TimeRangeLink[];
  timeGroups: TimeGroupLink[];
  orders: OrderLink[];
  arithmetic: ArithmeticLink[];
  /** Figures dividing one part of the data by another (`ratio of … to …`, `percentage of … that …`). */
  ratios: RatioLink[];
  /** Days of the week said as a condition (`on weekends`). */
  weekDays?: WeekDaysLink[];
  /** `distinct`, `each … once`, `unique` outside a count. */
  distinct: boolean;
  /** Content words (and adjacent runs of them) that link to nothing. */
  unlinked: Span[];
  /**
   * Words that change what is asked (a negation, an order, a ratio, a part of the week …) that no
   * link took: a plan without them answers another question.
   */
  unread: Span[];
}

export interface SlotColumn {
  table: string;
  column: string;
  path?: string[];
  label: string;
  score: number;
}

/** Candidate lists per slot, best first, to narrow the LLM's enumerated schema. */
export interface PlanSlots {
  tables: { table: string; score: number }[];
  columns: SlotColumn[];
  aggregates: { fn: AggregateFn; of: string; distinct: boolean }[];
  groupBy: SlotColumn[];
  filters: { column: string; op: CompareOp | 'in' | 'not_in' | 'between'; values: (string | number | boolean)[] }[];
  time: { unit: TimeUnit; size: number; window: TimeGroupLink['window'] } | null;
  order: { by: string; direction: 'asc' | 'desc' } | null;
  limit: number | null;
}

export interface PlanProposal {
  /** The single table or stream that can answer; null when none or several equally. */
  table: string | null;
  tableCandidates: { table: string; score: number }[];
  /** A complete plan when linking was conclusive enough to build one. */
  plan: QueryPlanInput | null;
  slots: PlanSlots;
  /** Content words that name nothing in the data (`wind speed`). */
  unknown: string[];
  /** Words that link to several things equally. */
  ambiguous: { phrase: string; candidates: string[] }[];
  confidence: 'high' | 'partial' | 'none';
  /** Why the proposal is not conclusive, in words (for logs and for the model's hint). */
  doubts: string[];
  /**
   * How words that could be read more than one way were read (`"above 30" is read as
   * temperature > 30 for each row, before aggregating`): the turn's assumptions when the plan is
   * the linker's.
   */
  readings: string[];
}
