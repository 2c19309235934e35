import { linkRequest } from '../link';
import { proposePlan } from '../propose';
import { LINK_RULES } from '../recognizers';
import { newLinkState, type LinkState } from '../recognizers/rule';
import { buildIndex } from '../schema-index';
import { tokenize } from '../text';
import type { LinkSchema, Links, PlanProposal } from '../types';
import { demoSchema, streamSchema, taxiSchema } from './fixtures';
import { planText, type PlanText } from './plan-text';

/**
 * The corpus harness: each rule's spec lists examples of what people say and what the rule makes
 * of it, and runs them through the whole linker (as Duckling's corpus runs through the whole
 * parser), looking only at the part the rule produces.
 */

/** The schemas examples are said over: the demo's, a taxi schema unlike it, and veloFlux streams. */
export type SchemaName = 'demo' | 'taxi' | 'stream';

export interface Example<T> {
  /** What the person says. */
  say: string;
  /** What the rule makes of it. */
  means: T;
  /** Over which schema (default the demo's), by name or given. */
  on?: SchemaName | LinkSchema;
}

/** "Now" for every example: relative dates (`last 7 days`) read the same on any day. */
export const CORPUS_NOW = new Date('2024-03-15T10:30:00Z');

const SCHEMAS: Record<SchemaName, LinkSchema> = { demo: demoSchema(), taxi: taxiSchema(), stream: streamSchema() };

export function schemaNamed(on: SchemaName | LinkSchema = 'demo'): LinkSchema {
  return typeof on === 'string' ? SCHEMAS[on] : on;
}

export function linksOf(say: string, on?: SchemaName | LinkSchema): Links {
  return linkRequest(say, schemaNamed(on), { now: CORPUS_NOW });
}

export function proposalOf(say: string, on?: SchemaName | LinkSchema): PlanProposal {
  const schema = schemaNamed(on);
  return proposePlan(linksOf(say, on), schema);
}

/** The recognizers' state right after the rule `name` ran: what a rule keeps to itself (owned tokens, cues). */
export function linkStateAfter(say: string, name: string, on?: SchemaName | LinkSchema): LinkState {
  const upTo = LINK_RULES.findIndex((r) => r.name === name);
  if (upTo < 0) throw new Error(`no recognizer ${name}`);
  const schema = schemaNamed(on);
  const state = newLinkState(say, tokenize(say), buildIndex(schema), CORPUS_NOW);
  for (const rule of LINK_RULES.slice(0, upTo + 1)) rule.apply(state);
  return state;
}

/** The orders the recognizer `name` added (orders are added by several, in LINK_RULES order). */
export function ordersAddedBy(say: string, name: string, on?: SchemaName | LinkSchema): LinkState['orders'] {
  const at = LINK_RULES.findIndex((r) => r.name === name);
  const before = at > 0 ? linkStateAfter(say, LINK_RULES[at - 1]?.name ?? '', on).orders.length : 0;
  return linkStateAfter(say, name, on).orders.slice(before);
}

/** The words of the request at the given token positions, in order. */
export function tokenWords(state: Pick<LinkState, 'tokens'>, at: Iterable<number>): string[] {
  return [...at].sort((a, b) => a - b).map((k) => state.tokens[k]?.text ?? '');
}

/** A recognizer's corpus: each example's links, seen through `observe`, equal what it means. */
export function linkCorpus<T>(examples: readonly Example<T>[], observe: (links: Links) => T): void {
  it.each(examples.map((e) => [e.say, e] as const))('%s', (_say, e) => {
    expect(observe(linksOf(e.say, e.on))).toEqual(e.means);
  });
}

/** A reading's corpus: each example's proposal, seen through `observe` with its plan in words, equals what it means. */
export function readingCorpus<T>(
  examples: readonly Example<T>[],
  observe: (p: PlanProposal, plan: PlanText | null) => T,
): void {
  it.each(examples.map((e) => [e.say, e] as const))('%s', (_say, e) => {
    const p = proposalOf(e.say, e.on);
    expect(observe(p, planText(p.plan))).toEqual(e.means);
  });
}

/** A recognizer's corpus over its own state: each example's state right after the rule, seen through `observe`. */
export function stateCorpus<T>(name: string, examples: readonly Example<T>[], observe: (s: LinkState) => T): void {
  it.each(examples.map((e) => [e.say, e] as const))('%s', (_say, e) => {
    expect(observe(linkStateAfter(e.say, name, e.on))).toEqual(e.means);
  });
}

/** The words of the request a span covers, or the spans' words. */
export const words = (spans: readonly { text: string }[]): string[] => spans.map((s) => s.text);
