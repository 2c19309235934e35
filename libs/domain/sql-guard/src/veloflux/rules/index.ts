import type { VelofluxRule } from '../rule';
import { aggregateFilters } from './aggregate-filters';
import { aggregatesInWhere } from './aggregates-in-where';
import { aliasPlacement } from './alias-placement';
import { casts } from './casts';
import { concatOperator } from './concat-operator';
import { distinctAggregates } from './distinct-aggregates';
import { emptyClauses } from './empty-clauses';
import { extract } from './extract';
import { fromSource } from './from-source';
import { groupByNeedsAggregate } from './group-by-needs-aggregate';
import { havingNeedsWindow } from './having-needs-window';
import { ignoredDistinct } from './ignored-distinct';
import { ignoredLimit } from './ignored-limit';
import { intervalLiterals } from './interval-literals';
import { jsonOperators } from './json-operators';
import { knownStream } from './known-stream';
import { nullTests } from './null-tests';
import { nullsOrdering } from './nulls-ordering';
import { oneWindow } from './one-window';
import { orderByStar } from './order-by-star';
import { patternMatching } from './pattern-matching';
import { qualifiedNames } from './qualified-names';
import { rangeAndListTests } from './range-and-list-tests';
import { selectAliases } from './select-aliases';
import { setOperations } from './set-operations';
import { singleStream } from './single-stream';
import { structAccess } from './struct-access';
import { subqueries } from './subqueries';
import { typedLiterals } from './typed-literals';
import { ungroupedColumns } from './ungrouped-columns';
import { unknownColumns } from './unknown-columns';
import { unknownFunctions } from './unknown-functions';
import { windowArguments } from './window-arguments';
import { windowClauses } from './window-clauses';
import { windowPlacement } from './window-placement';

/**
 * Every veloFlux rule (contract §7 and what the recorded and live engine taught). Their order does
 * not matter: findings are read back in the order of the query's text. A new rule is a file here
 * with its spec, and one line in this list.
 */
export const VELOFLUX_RULES: readonly VelofluxRule[] = [
  // the statement's shape
  setOperations,
  windowClauses,
  ignoredLimit,
  emptyClauses,
  fromSource,
  singleStream,
  knownStream,
  ignoredDistinct,
  selectAliases,
  // constructs StreamDialect parses and the planner or the running pipeline does not handle
  orderByStar,
  concatOperator,
  casts,
  jsonOperators,
  nullTests,
  patternMatching,
  rangeAndListTests,
  intervalLiterals,
  extract,
  subqueries,
  nullsOrdering,
  distinctAggregates,
  aggregateFilters,
  typedLiterals,
  // names the engine must have
  unknownFunctions,
  unknownColumns,
  structAccess,
  qualifiedNames,
  aliasPlacement,
  // windows, grouping and aggregation
  aggregatesInWhere,
  windowPlacement,
  windowArguments,
  oneWindow,
  havingNeedsWindow,
  groupByNeedsAggregate,
  ungroupedColumns,
];
