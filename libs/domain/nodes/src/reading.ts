import type { DraftMode } from '@nl2p/config';
import { describeMeaning, type Envelope, type Reading, type Resolution } from '@nl2p/envelope';
import type { ColumnValues, TargetProfile } from '@nl2p/engine';
import {
  accountTokens,
  classifyIntent,
  linkRequest,
  proposePlan,
  unexplainedTokens,
  unusedTerms,
  type LinkSchema,
} from '@nl2p/linking';
import { QueryPlan } from '@nl2p/query-plan';
import { sourcesLinkView } from './sources-link-view';
import type { Grounding } from './grounding';
import { resolutionAssumptions, resolvePlan, withResolutions } from './conversation/resolutions';

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

/**
 * The linking view of what the session was grounded in. Over all sources the tables are every
 * source's, and so are the values (`sourceValues`): the target's cached values are not theirs,
 * and without the sources' own a request naming 'Germany' or 'berlin-lab' is not read. The
 * linker sees them under their bare names (`sourcesLinkView`); the plan is qualified afterwards.
 */
export async function linkSchemaFor(
  e: Envelope,
  grounding: Grounding,
  profile: TargetProfile,
  sourceValues?: () => Promise<ColumnValues>,
): Promise<LinkSchema> {
  const catalog =
    e.sources === 'all'
      ? { values: sourceValues ? await sourceValues() : {} }
      : await grounding.catalog(e.target, e.digest_hash);
  const facts = Object.entries(e.table_facts ?? {});
  const comments = Object.fromEntries(facts.flatMap(([t, f]) => (f.comment ? [[t, f.comment]] : [])));
  const keys = Object.fromEntries(
    facts.map(([t, f]) => [t, { primaryKey: f.primary_key ?? [], foreignKeys: f.foreign_keys ?? [] }]),
  );
  const schema = { tables: tablesOf(e), values: catalog.values ?? {}, streaming: profile.streaming, comments, keys };
  return e.sources === 'all' ? sourcesLinkView(schema) : schema;
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
 *
 * `resolutions`: words the person explained in this session. The linker sees each as a name of
 * its own in the schema (see `withResolutions`), and the plan is spelled back in the real names.
 */
export function readRequest(
  request: string,
  given: LinkSchema,
  o: ReadingOptions,
  resolutions: readonly Resolution[] = [],
): Reading {
  const { schema, names } = withResolutions(given, resolutions);
  const links = linkRequest(request, schema);
  const proposal = proposePlan(links, schema);
  const tokens = accountTokens(links);
  const doubts = [...proposal.doubts];
  let confidence = proposal.confidence;

  let plan: QueryPlan | null = null;
  const assumptions = proposal.readings.map((a) => inRealNames(a, names));
  if (proposal.plan) {
    const parsed = QueryPlan.safeParse(proposal.plan);
    const resolved = parsed.success ? resolvePlan(parsed.data, names) : null;
    if (resolved?.plan) {
      plan = resolved.plan;
      assumptions.unshift(...resolutionAssumptions(resolved.used));
    } else {
      const why = parsed.success ? resolved?.problem : parsed.error.issues.map((i) => i.message).join('; ');
      doubts.push(`the linker's plan is malformed: ${why ?? 'unknown'}`);
      if (confidence === 'high') confidence = 'partial';
    }
  }
  // A phrase naming data that the plan does not use is a clause the plan dropped (checked in the
  // names the linker saw, before a session's explained words are spelled back).
  const dropped = plan && proposal.plan ? unusedTerms(links, proposal.plan, schema) : [];
  if (dropped.length) {
    doubts.push(`the plan does not use ${dropped.map((w) => `'${w}'`).join(', ')}`);
    if (confidence === 'high') confidence = 'partial';
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
    const real = realColumn(c.table, c.label, names);
    if (real) columns.set(`${real.table}.${real.label}`, real);
  }
  const table = proposal.table && realTableOf(proposal.table, names);
  return {
    request,
    intent: classifyIntent(request, schema, links),
    named_table: mentionedTable(request, given),
    tables: proposal.tableCandidates.map((c) => ({ table: realTableOf(c.table, names), score: c.score })),
    table,
    plan,
    columns: [...columns.values()],
    tokens,
    unknown: proposal.unknown,
    ambiguous: proposal.ambiguous,
    unexplained,
    assumptions,
    doubts,
    confidence,
    trusted: conclusive && o.mode !== 'sql' && o.trustLinks,
  };
}

/** A sentence of the linker's in the real names: `wind_speed > 30` said as `temperature > 30`. */
function inRealNames(sentence: string, names: ReadonlyMap<string, Resolution>): string {
  let out = sentence;
  for (const [key, r] of names) {
    const virtual = key.includes('=') ? null : key.split('.').at(-1);
    if (!virtual) continue;
    const real =
      r.means.kind === 'column' ? r.means.column : r.means.kind === 'table' ? r.means.table : describeMeaning(r.means);
    out = out.replace(new RegExp(`\\b${virtual}\\b`, 'g'), real);
  }
  return out;
}

/** A table the linker named, in the real names (a table word is its table). */
function realTableOf(table: string, names: ReadonlyMap<string, Resolution>): string {
  const r = names.get(table);
  return r?.means.kind === 'table' ? r.means.table : table;
}

/** A column label the linker tied to the request, in the real names; null for a computed word. */
function realColumn(table: string, label: string, names: ReadonlyMap<string, Resolution>) {
  const real = realTableOf(table, names);
  const r = names.get(`${table}.${label}`);
  if (!r) return { table: real, label };
  return r.means.kind === 'column' ? { table: real, label: r.means.column } : null;
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
