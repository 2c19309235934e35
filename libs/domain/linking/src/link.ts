import { conceptColumns } from './match';
import { LINK_RULES } from './recognizers';
import { newLinkState, slice, type LinkState } from './recognizers/rule';
import { buildIndex, type SchemaIndex } from './schema-index';
import { tokenize } from './text';
import type { LinkSchema, Links } from './types';

export interface LinkOptions {
  /** What "last 7 days" is relative to; default the current time. */
  now?: Date;
}

/** What every word or phrase of the request maps to in the schema: see {@link Links}. */
export function linkRequest(text: string, schema: LinkSchema, options: LinkOptions = {}): Links {
  return linkWithIndex(text, buildIndex(schema), options);
}

/** The recognizers (LINK_RULES) run in order over the request's tokens. */
export function linkWithIndex(text: string, index: SchemaIndex, options: LinkOptions = {}): Links {
  const state = newLinkState(text, tokenize(text), index, options.now ?? new Date());
  for (const rule of LINK_RULES) rule.apply(state);
  return linksOf(state);
}

/** The links a state holds once every recognizer ran. */
function linksOf(s: LinkState): Links {
  return {
    text: s.text,
    now: s.now.toISOString(),
    tokens: s.tokens.map((t) => t.text),
    terms: s.terms,
    relations: s.relations,
    allOf: s.allOf,
    textMatches: s.textMatches,
    numbers: s.comparisonCues.map((c) => ({
      start: c.numberAt,
      end: c.end,
      text: slice(s, c.numberAt, c.end),
      value: c.value,
      unit: c.unit,
      unitColumns: c.unit ? conceptColumns(s.index, c.unit) : [],
    })),
    comparisons: s.comparisons,
    setComparisons: s.setComparisons,
    quantifiedComparisons: s.quantifiedComparisons,
    aggregates: s.aggregates,
    groups: s.groups,
    timeRanges: s.timeRanges,
    timeGroups: s.timeGroups,
    orders: s.orders,
    arithmetic: s.arithmetic,
    ratios: s.ratios,
    weekDays: s.weekDays,
    distinct: s.distinct,
    unlinked: s.unlinked,
    unread: s.unread,
  };
}
