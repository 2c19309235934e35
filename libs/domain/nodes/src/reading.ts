import type { DraftMode } from '@nl2p/config';
import type { Envelope, Reading } from '@nl2p/envelope';
import { CLARIFICATION_MARKER } from '@nl2p/graph';
import type { TargetProfile } from '@nl2p/engine';
import {
  accountTokens,
  classifyIntent,
  linkRequest,
  proposePlan,
  unexplainedTokens,
  type LinkSchema,
} from '@nl2p/linking';
import { QueryPlan } from '@nl2p/query-plan';
import type { Grounding } from './grounding';

/** How a deployment uses the reading of a request (ARCHITECTURE §7a). */
export interface ReadingOptions {
  /**
   * LINKING: the reading decides obvious intents (no router model) and the one table a request
   * points at (no `need_stream`).
   */
  linking: boolean;
  /** DRAFT_MODE: in `plan` and `auto` the drafter works from the reading's plan. */
  mode: DraftMode;
  /** PLAN_TRUST_LINKS: a conclusive reading's plan is taken as it is, without a model. */
  trustLinks: boolean;
}

/** Whether anything reads a reading under `o`: with neither linking nor plans, none is made. */
export function readsRequests(o: ReadingOptions): boolean {
  return o.linking || o.mode !== 'sql';
}

/** The linking view of what the session was grounded in. */
export async function linkSchemaFor(e: Envelope, grounding: Grounding, profile: TargetProfile): Promise<LinkSchema> {
  const catalog = await grounding.catalog(e.target, e.digest_hash);
  return { tables: tablesOf(e), values: catalog.values ?? {}, streaming: profile.streaming };
}

/** Every table's columns the session was grounded in, the active stream's as described. */
export function tablesOf(e: Envelope): LinkSchema['tables'] {
  const tables = { ...e.tables };
  if (e.stream_schema) tables[e.stream_schema.name] = e.stream_schema.columns;
  return tables;
}

/**
 * The Reading of `request`: the linker's links, intent and plan proposal, every token with what
 * consumed it, and whether the reading is conclusive enough to be taken without a model.
 *
 * Conclusive: the proposal's confidence is high, it has a plan (well-formed), and nothing is
 * unexplained — no unknown or ambiguous word, and no token that no link read and the lexicon does
 * not know as filler (such a token lowers the confidence to partial, with a doubt naming it).
 */
export function readRequest(request: string, schema: LinkSchema, o: ReadingOptions): Reading {
  const words = personsWords(request);
  const links = linkRequest(words, schema);
  const proposal = proposePlan(links, schema);
  const tokens = accountTokens(links);
  const doubts = [...proposal.doubts];
  let confidence = proposal.confidence;

  let plan: QueryPlan | null = null;
  if (proposal.plan) {
    const parsed = QueryPlan.safeParse(proposal.plan);
    if (parsed.success) plan = parsed.data;
    else {
      doubts.push(`the linker's plan is malformed: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
      if (confidence === 'high') confidence = 'partial';
    }
  }
  const unread = unexplainedTokens(tokens);
  const key = (w: string) =>
    w
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  const named = new Set([...proposal.unknown, ...proposal.ambiguous.map((a) => a.phrase)].map(key));
  const unnoticed = unread.filter((w) => !named.has(key(w)));
  if (unnoticed.length) {
    doubts.push(`no rule read ${unnoticed.map((w) => `'${w}'`).join(', ')}`);
    if (confidence === 'high') confidence = 'partial';
  }
  const unexplained = [...new Set([...proposal.unknown, ...proposal.ambiguous.map((a) => a.phrase), ...unnoticed])];
  const conclusive = confidence === 'high' && plan !== null && unexplained.length === 0;

  const columns = new Map<string, { table: string; label: string }>();
  for (const c of [...proposal.slots.columns, ...proposal.slots.groupBy]) {
    columns.set(`${c.table}.${c.label}`, { table: c.table, label: c.label });
  }
  return {
    request,
    intent: classifyIntent(words, schema, links),
    named_table: mentionedTable(words, schema),
    tables: proposal.tableCandidates.map((c) => ({ table: c.table, score: c.score })),
    table: proposal.table,
    plan,
    columns: [...columns.values()],
    tokens,
    unknown: proposal.unknown,
    ambiguous: proposal.ambiguous,
    unexplained,
    assumptions: proposal.readings,
    doubts,
    confidence,
    trusted: conclusive && o.mode !== 'sql' && o.trustLinks,
  };
}

/**
 * The person's words of a request: a clarification answer is joined to its request after the
 * product's own `Clarification:` (pre_turn), which names nothing and must not be read as if it did
 * (it would be an unknown word, and the answer a question about it).
 */
export function personsWords(request: string): string {
  return request.split(`\n${CLARIFICATION_MARKER} `).join('.\n');
}

/** The envelope's reading when it is of the request this turn serves; null otherwise. */
export function currentReading(e: Envelope): Reading | null {
  return e.reading && e.request !== null && e.reading.request === e.request ? e.reading : null;
}

/** The table a request names outright (`describe orders`), singular or plural, any case. */
export function mentionedTable(request: string, schema: LinkSchema): string | null {
  const words = new Set(
    request
      .toLowerCase()
      .split(/[^a-z0-9_]+/)
      .filter(Boolean),
  );
  const found = Object.keys(schema.tables).filter((t) => {
    const name = t.toLowerCase();
    return words.has(name) || words.has(name.replace(/s$/, '')) || words.has(`${name}s`);
  });
  return found.length === 1 ? found[0] : null;
}
