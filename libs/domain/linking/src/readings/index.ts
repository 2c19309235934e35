import { columnsOfColumns } from './columns-of-columns';
import { selfReferences } from './self-references';
import { absence } from './absence';
import { absentConditions } from './absent-conditions';
import { aggregates } from './aggregates';
import { alphabeticalOrder } from './alphabetical-order';
import { booleans } from './booleans';
import { bothConditions } from './both-conditions';
import { countedEntities } from './counted-entities';
import { countedEntityLimit } from './counted-entity-limit';
import { countedGroups } from './counted-groups';
import { distinct } from './distinct';
import { exceptRows } from './except-rows';
import { repeatedRows } from './repeated-rows';
import { ellipticalComparisons } from './elliptical-comparisons';
import { grouping } from './grouping';
import { listedGroups } from './listed-groups';
import { groupExtremes } from './group-extremes';
import { having } from './having';
import { implicitAggregate } from './implicit-aggregate';
import { joins } from './joins';
import { meaning } from './meaning';
import { negatedRelatedValues } from './negated-related-values';
import { orderLimit } from './order-limit';
import { projection } from './projection';
import { quantifiedComparisons } from './quantified-comparisons';
import { relations } from './relations';
import { rowComparisons } from './row-comparisons';
import { rowKeys } from './row-keys';
import { setComparisons } from './set-comparisons';
import { sourceTable } from './source-table';
import type { ReadingRule } from './state';
import { textMatches } from './text-matches';
import { timeBuckets } from './time-buckets';
import { timeColumn } from './time-column';
import { timeRanges } from './time-ranges';
import { unexplained } from './unexplained';
import { unreadWords } from './unread-words';
import { values } from './values';
import { weekDays } from './week-days';

export type { ReadingRule, ReadingState } from './state';

/**
 * The readings, in the order they run over the links: each decides a part of the plan from the
 * links and from what the readings before it decided (the ReadingState). A new reading is a file
 * here with its spec and one line in this list, placed after what it reads.
 *
 * Why this order:
 * 1. The source first: every later reading resolves words among the tables in scope. With no
 *    word naming data (source-table sets `none`) the rest do not run. Joins next, so a term naming
 *    another table's column resolves there; a table said absent is not joined but tested (absence).
 * 2. Row conditions (values, comparisons, time ranges) before the aggregates: each marks the
 *    terms it takes as used, so a column said as a condition is not also taken as a measure. A
 *    comparison with an aggregate of a set (`above the average price`) is a row condition too: its
 *    aggregate is the sub-query's, never one the plan shows; so is one with every member of a
 *    set (`older than every manager`). The
 *    time column is found once, before the ranges, days of the week, buckets and time orders
 *    that use it.
 * 3. Aggregates before what refers back to them: a bare comparison reads as the one measure
 *    aggregated (elliptical comparisons), grouping groups only when something is computed.
 * 4. Grouping and the time bucket before the aggregate a grouping implies (implicit aggregate),
 *    and before HAVING, which needs to know what is grouped. A limit said per group (`for each
 *    team, the oldest player`) turns the grouping into the rows holding each group's extreme
 *    (group extremes), right after grouping and before anything reads the group keys. Counted groups (`cities with two
 *    airports`) group only when nothing else did, and before HAVING, which then compares the count.
 *    `both` before two conditions intersects them once HAVING has placed the conditions said of a
 *    noun (`both ships above 6000 tons and ships below 4000`).
 * 5. Booleans after every other condition, so a yes/no column already used is not read twice.
 * 6. Order and limit, then projection (an aggregate the order sorts on is shown), then what
 *    names each row when the request is said per row (`… for each aircraft code`: row keys),
 *    then the alphabetical order (of a name shown), then DISTINCT (which depends on what is shown).
 * 7. Accounting last: columns said of a column that is a reference to another row (columns of
 *    columns, once the projection has used its terms), a person said as a verb's object among rows
 *    that reference people (self references); the verbs relating two things said, checked against the joins (relations);
 *    terms no reading used (unexplained), and the words read by meaning rather than by spelling
 *    (meaning), which need the final list of used terms.
 */
export const READING_RULES: readonly ReadingRule[] = [
  // 1. where the rows come from
  unreadWords,
  sourceTable,
  joins,
  absence,
  // 2. row conditions
  values,
  rowComparisons,
  setComparisons,
  quantifiedComparisons,
  textMatches,
  timeColumn,
  timeRanges,
  weekDays,
  // 3. what is computed
  aggregates,
  ellipticalComparisons,
  // 4. per what
  grouping,
  groupExtremes,
  timeBuckets,
  countedGroups,
  countedEntities,
  listedGroups,
  implicitAggregate,
  having,
  bothConditions,
  // 5. yes/no conditions
  booleans,
  // 6. order, shape
  orderLimit,
  countedEntityLimit,
  projection,
  rowKeys,
  alphabeticalOrder,
  distinct,
  exceptRows,
  absentConditions,
  negatedRelatedValues,
  // each row once, on the joins that remain
  repeatedRows,
  // 7. accounting
  columnsOfColumns,
  selfReferences,
  relations,
  unexplained,
  meaning,
];
