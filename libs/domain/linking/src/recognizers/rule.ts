import type { AggregateFn } from '@nl2p/query-plan';
import type { FoundComparison } from './comparison-cues';
import type { FoundLimit } from './limits';
import type { FoundRatioCue } from './ratio-cues';
import type { FoundTextMatch } from './text-match-cues';
import type { SchemaIndex } from '../schema-index';
import type { Token } from '../text';
import type {
  AllOfLink,
  AggregateLink,
  ArithmeticLink,
  ComparisonLink,
  GroupLink,
  OrderLink,
  RelationLink,
  SetComparisonLink,
  QuantifiedComparisonLink,
  RatioLink,
  Span,
  WeekDaysLink,
  TextMatchLink,
  TermLink,
  TimeGroupLink,
  TimeRangeLink,
} from '../types';

/** An aggregate or superlative cue at a token (`how many`, `average`, `highest`), before its target is known. */
export interface AggregateCue {
  /** Null for `how much`: a cue that says something is measured, not how. */
  fn: AggregateFn | null;
  superlative: boolean;
  /** The token after the cue. */
  end: number;
}

/** An explicit sort direction (`descending`, `newest first`). */
export interface Direction {
  start: number;
  end: number;
  direction: 'asc' | 'desc';
  time: boolean;
  /** Said of text (`alphabetically`, `in alphabetical order`): it sorts a name, not a measure. */
  text: boolean;
}

/**
 * What the recognizers know about one request, filled in rule by rule (see LINK_RULES). A rule
 * reads what the rules before it wrote and adds its own part; nothing else is shared.
 */
export interface LinkState {
  readonly text: string;
  readonly tokens: readonly Token[];
  readonly index: SchemaIndex;
  /** What "last 7 days" is relative to. */
  readonly now: Date;
  /** Tokens a recognizer owns: later recognizers do not read them again (a date's number is no value). */
  readonly taken: Set<number>;
  timeGroups: TimeGroupLink[];
  timeRanges: TimeRangeLink[];
  limits: FoundLimit[];
  direction: Direction | null;
  /** Comparisons with a number, before their subject is known. */
  comparisonCues: FoundComparison[];
  /** Aggregate and superlative cues by their first token. */
  aggregateCues: Map<number, AggregateCue>;
  /** `distinct`, `each … once`, `no duplicates` said of the rows. */
  distinct: boolean;
  /** Tokens saying `distinct`, `different`, `unique`. */
  distinctAt: Set<number>;
  terms: TermLink[];
  /** The term covering each token. */
  termAt: Map<number, TermLink>;
  /** Where a negation word is (`not`, `except`, `n't`). */
  negationAt: number[];
  arithmetic: ArithmeticLink[];
  /** The arithmetic covering each token. */
  arithmeticAt: Map<number, ArithmeticLink>;
  /** Words an arithmetic defines (`revenue`), standing for it wherever they are said. */
  defined: Set<string>;
  aggregates: AggregateLink[];
  /** The aggregate (its index) starting at each token. */
  aggregateAt: Map<number, number>;
  comparisons: ComparisonLink[];
  /** Comparisons with an aggregate of a set (`above the average price`). */
  setComparisons: SetComparisonLink[];
  /** Comparisons with every member of a set (`older than every manager`). */
  quantifiedComparisons: QuantifiedComparisonLink[];
  groups: GroupLink[];
  orders: OrderLink[];
  relations: RelationLink[];
  allOf: AllOfLink[];
  /** Text matches with their text, before their column is known. */
  textMatchCues: FoundTextMatch[];
  /** `ratio of`, `percentage of`: a figure dividing two parts of the data, before its sides are known. */
  ratioCues: FoundRatioCue[];
  ratios: RatioLink[];
  /** Days of the week said as a condition (`on weekends`). */
  weekDays: WeekDaysLink[];
  textMatches: TextMatchLink[];
  /** Tokens some link covers: what is left is either filler or unlinked. */
  covered: Set<number>;
  unlinked: Span[];
  unread: Span[];
}

/** One recognizer: a named step that reads the request and adds links to the state. */
export interface LinkRule {
  name: string;
  apply(state: LinkState): void;
}

export function newLinkState(text: string, tokens: readonly Token[], index: SchemaIndex, now: Date): LinkState {
  return {
    text,
    tokens,
    index,
    now,
    taken: new Set(),
    timeGroups: [],
    timeRanges: [],
    limits: [],
    direction: null,
    comparisonCues: [],
    aggregateCues: new Map(),
    distinct: false,
    distinctAt: new Set(),
    terms: [],
    termAt: new Map(),
    negationAt: [],
    arithmetic: [],
    arithmeticAt: new Map(),
    defined: new Set(),
    aggregates: [],
    aggregateAt: new Map(),
    comparisons: [],
    setComparisons: [],
    quantifiedComparisons: [],
    groups: [],
    orders: [],
    relations: [],
    allOf: [],
    textMatchCues: [],
    textMatches: [],
    ratioCues: [],
    ratios: [],
    weekDays: [],
    covered: new Set(),
    unlinked: [],
    unread: [],
  };
}

export const range = (a: number, b: number): number[] => Array.from({ length: Math.max(0, b - a) }, (_, k) => a + k);

/** The token's normal form, or '' past either end. */
export function norm(s: Pick<LinkState, 'tokens'>, k: number): string {
  return s.tokens[k]?.norm ?? '';
}

/** The request's own words from token `start` to token `end` (exclusive). */
export function slice(s: Pick<LinkState, 'text' | 'tokens'>, start: number, end: number): string {
  return s.text.slice(s.tokens[start]?.start ?? 0, s.tokens[end - 1]?.end ?? 0);
}

export function take(s: LinkState, idx: Iterable<number>): void {
  for (const k of idx) s.taken.add(k);
}

/** Tokens of the aggregate and superlative cues. */
export function cueTokens(s: LinkState): Set<number> {
  const out = new Set<number>();
  for (const [i, c] of s.aggregateCues) for (const k of range(i, c.end)) out.add(k);
  return out;
}

/** The cues in the order they are said. */
export function cuesInOrder(s: LinkState): [number, AggregateCue][] {
  return [...s.aggregateCues].sort((a, b) => a[0] - b[0]);
}
