import { aggregateCues } from './aggregate-cues';
import { equalNumbers } from './equal-numbers';
import { eventVerbs } from './event-verbs';
import { orderOf } from './order-of';
import { aggregates } from './aggregates';
import { arithmetic } from './arithmetic';
import { comparisonCues } from './comparison-cues';
import { comparisons } from './comparisons';
import { bothValues } from './both-values';
import { bothConditions } from './both-conditions';
import { coverage } from './coverage';
import { direction } from './direction';
import { directionOrder } from './direction-order';
import { distinctWords } from './distinct-words';
import { elapsed } from './elapsed';
import { groups } from './groups';
import { limitOrders } from './limit-orders';
import { limits } from './limits';
import { ordinalLimits } from './ordinal-limits';
import { negation } from './negation';
import { oneAnswer } from './one-answer';
import { operators } from './operators';
import { projection } from './projection';
import { quantifiedComparisons } from './quantified-comparisons';
import { ratioCues } from './ratio-cues';
import { ratios } from './ratios';
import { relationVerbs } from './relation-verbs';
import { repeatedNounConditions } from './repeated-noun-conditions';
import { setComparisons } from './set-comparisons';
import type { LinkRule } from './rule';
import { superlativeOrders } from './superlative-orders';
import { terms } from './terms';
import { textMatchCues } from './text-match-cues';
import { textMatches } from './text-matches';
import { timeGroups } from './time-groups';
import { timeRanges } from './time-ranges';
import { unlinked } from './unlinked';
import { unread } from './unread';
import { weekDays } from './week-days';

export type { LinkRule, LinkState } from './rule';

/**
 * The recognizers, in the order they run on a request. Each reads what the ones before it wrote
 * into the LinkState and adds its part; a new recognizer is a file here with its spec and one line
 * in this list, placed after what it reads and before what reads it.
 *
 * Why this order:
 * 1. Cues that own their numbers and words come first, so nothing later reads them as data:
 *    windows before dates ("a sliding window of the last 30 seconds" is not a date range), dates
 *    before limits ("the first 10 days"), limits (and ranks said as ordinals, "the second
 *    highest") and the sort direction before comparisons ("top 3" is no value), comparisons before aggregate cues ("at least" is no minimum); text matches
 *    own their quoted text ("containing 'Ha'": the text is no value).
 * 2. Words that are cues, not data: aggregate and superlative cues, ratio cues (`ratio of`,
 *    `percentage of`: no term reads them), then operators (which take back a cue read at
 *    `times`), then distinct words. The terms are matched on what is left.
 * 3. Terms: everything after reads them.
 * 4. What the terms take part in, each needing the ones before: negation and projection mark
 *    terms (and `both A and B` the values each row must have, negated ones left out); arithmetic joins them (and defines words, such as `revenue`), and the time elapsed between two dates is an arithmetic too (`days between A and B`); aggregates find their
 *    targets among terms and arithmetic; comparisons find their subject among terms and
 *    aggregates, and a number left after a column with no cue is its value (`id 7`); a comparison
 *    with an aggregate (`above the average price`) needs the aggregates; `both` before two
 *    comparisons (`both ships above 6000 tons and ships below 4000`) needs the comparisons
 *    and takes its superlative cue before the orders read it (`below the largest balance` does
 *    not sort), and one with every member of a set (`older than every manager`) takes its
 *    quantifier before groups read `every` as a grouping; the sides of a ratio need the terms and
 *    aggregates, and take their separator before groups read it (`population per area` is no
 *    grouping); days of the week no term took (`on weekends`) are read before groups take a
 *    `per`; groups need the aggregates and comparisons (`products with a total quantity
 *    above 50`) and add sort keys (`sorted by age`) as the first orders.
 * 5. Orders, in the order the proposer reads them: sort keys (from groups), superlatives, limits,
 *    the explicit direction (or `in order of X` without one), and the one-answer limit (only when no limit was said).
 * 6. Accounting last: the verbs of the events time ranges date (`published in 2020`: read with
 *    the range, once the terms show they name nothing), what every link covers, then the verbs that relate two things said (which
 *    need every other link in place), then the content words left unlinked and the
 *    answer-changing words left unread.
 */
export const LINK_RULES: readonly LinkRule[] = [
  // 1. cues that own their numbers
  timeGroups,
  timeRanges,
  ordinalLimits,
  limits,
  direction,
  comparisonCues,
  textMatchCues,
  // 2. cue words that are not data
  aggregateCues,
  ratioCues,
  operators,
  distinctWords,
  // 3. data
  terms,
  // 4. what the terms take part in
  negation,
  bothValues,
  projection,
  arithmetic,
  elapsed,
  aggregates,
  comparisons,
  bothConditions,
  repeatedNounConditions,
  setComparisons,
  quantifiedComparisons,
  equalNumbers,
  textMatches,
  ratios,
  weekDays,
  groups,
  // 5. orders
  superlativeOrders,
  limitOrders,
  directionOrder,
  orderOf,
  oneAnswer,
  // 6. accounting
  eventVerbs,
  coverage,
  relationVerbs,
  unlinked,
  unread,
];
