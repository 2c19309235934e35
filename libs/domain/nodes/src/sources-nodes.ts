import { emptyDraft, tmpPipelineIdOf, type Envelope, type Interrupt, type Reading } from '@nl2p/envelope';
import { checkAcrossSources, decomposePlan, ExecutionDagError } from '@nl2p/execution-dag';
import { chooseAnswer } from '@nl2p/answer';
import { executeDag, qualifyPlan, type DagOutcome, type SqlSources } from '@nl2p/engine';
import type { LinkSchema } from '@nl2p/linking';
import { clarificationFor } from './conversation/ask';

// Sessions over all SQL sources (`Envelope.sources === 'all'`): the catalog is every source's
// tables under `source.table`, the request is read over it by the linker, and the plan is split
// into parts run where their data lives, then joined in DuckDB (libs/engine/src/sources). No model
// drafts here: a reading that is not conclusive is a question for the person, never a guess.

/** A source that could not be read or run: the turn fails with its name, nothing partial is shown. */
export class SourceUnavailableError extends Error {
  override readonly name = 'SourceUnavailableError';
}

/** `init_session` over all sources: every source's tables, qualified; a source that cannot be read fails the turn. */
export async function initOverSources(e: Envelope, sources: SqlSources): Promise<Envelope> {
  const catalog = await sources.catalog();
  if (catalog.unreadable.length) {
    const which = catalog.unreadable.map((u) => `source ${u.source} (${labelOf(sources, u.source)}): ${u.error}`);
    throw new SourceUnavailableError(`could not read the catalog of ${which.join('; ')}`);
  }
  const facts = Object.entries(catalog.keys).flatMap(([table, k]) =>
    k.primaryKey?.length || k.foreignKeys?.length
      ? [[table, { ...(k.primaryKey?.length ? { primary_key: k.primaryKey } : {}), ...(k.foreignKeys?.length ? { foreign_keys: k.foreignKeys } : {}) }] as const]
      : [],
  ); // prettier-ignore
  return {
    ...e,
    streams: Object.keys(catalog.tables),
    tables: catalog.tables,
    table_facts: Object.fromEntries(facts),
    digest_hash: null,
    active_stream: null,
    stream_schema: null,
    sources_run: null,
  };
}

/**
 * `run_sources`: the reading's plan checked over the qualified catalog, split into the DAG and
 * run. The view gets each part's SQL (with its engine, plan and time), the combine SQL, the
 * combined preview, the key rules as assumptions and the answer in words; a question the DAG
 * raises (a table two sources hold, keys that barely match, a part over its row limit) is the
 * turn's clarification.
 */
export async function runOverSources(
  e: Envelope,
  reading: Reading,
  schema: LinkSchema,
  sources: SqlSources,
  signal: AbortSignal,
  streams: StreamsElsewhere = async () => [],
): Promise<Envelope> {
  const unclear = clarificationFor(reading, schema, null) ?? notConclusive(reading);
  if (unclear) {
    // A request that names a stream reads a table and a stream: say why it cannot be answered here.
    const named = streamsNamedIn(e.request ?? '', await streams(), Object.keys(e.tables));
    if (named.length) return ask(e, streamAndTableSentence(named));
    return ask(e, unclear.question, unclear);
  }
  const qualified = qualifyPlan(reading.plan as NonNullable<Reading['plan']>, {
    tables: e.tables,
    keys: {},
    shared: {},
    unreadable: [],
  });
  if ('question' in qualified) return ask(e, qualified.question);
  const checked = checkAcrossSources(qualified.plan, e.tables);
  if (!checked.ok)
    return ask(
      e,
      `The request did not read as a query over the sources: ${checked.errors.join('; ')}. Could you rephrase it?`,
    );
  let dag;
  try {
    dag = decomposePlan(checked.plan, e.tables);
  } catch (err) {
    if (err instanceof ExecutionDagError) return ask(e, `This question cannot be split across sources yet (${err.message}). Could you ask it another way?`);
    throw err;
  } // prettier-ignore
  const outcome = await executeDag(dag, sources, e.tables, {
    tmpId: tmpPipelineIdOf(e),
    signal,
    rowLimit: sources.rowLimit,
    timeoutMs: sources.queryTimeoutMs,
  });
  const run = sourcesRunOf(outcome);
  if (outcome.kind === 'question') return { ...ask(e, outcome.question), sources_run: run };
  const assumptions = [...reading.assumptions, ...outcome.assumptions];
  const answer = chooseAnswer({ plan: checked.plan, columns: outcome.columns, rows: outcome.rows, truncated: outcome.truncated, assumptions }, null); // prettier-ignore
  const preview = { columns: outcome.columns, rows: outcome.rows.slice(0, PREVIEW_ROWS), truncated: outcome.truncated || outcome.rows.length > PREVIEW_ROWS }; // prettier-ignore
  return {
    ...e,
    draft: {
      ...emptyDraft(),
      sql: outcome.combine?.sql ?? outcome.parts[0]?.sql ?? null,
      mode: 'plan',
      plan: checked.plan,
      assumptions,
    },
    validation: { ...e.validation, ok: true, error: null, error_stage: null },
    explain: { ...e.explain, preview, preview_error: null },
    sources_run: run,
    // The template's sentence; `word_answer` may let a server model word it (checked against the rows).
    answer: { kind: 'message', text: answer.text, data: { written_by: answer.by } },
  };
}

/** The streams of the deployment's streaming engines (veloFlux), with the engine's name; empty when none answers. */
export type StreamsElsewhere = () => Promise<{ stream: string; engine: string }[]>;

/**
 * Streams the request names by their own name (`sensor_stream`, or `sensor stream` spelled out),
 * unless a source's table has that name too (then it is that table).
 */
export function streamsNamedIn(
  request: string,
  streams: readonly { stream: string; engine: string }[],
  tables: readonly string[],
): { stream: string; engine: string }[] {
  const text = ` ${request.toLowerCase().replace(/[^a-z0-9_]+/g, ' ')} `;
  const tableNames = new Set(tables.map((t) => t.split('.').pop()?.toLowerCase()));
  return streams.filter(({ stream }) => {
    const name = stream.toLowerCase();
    if (tableNames.has(name)) return false;
    return text.includes(` ${name} `) || text.includes(` ${name.replace(/_/g, ' ')} `);
  });
}

/** Why a request that reads a stream cannot be answered over the SQL sources, and what to do instead. */
export function streamAndTableSentence(named: readonly { stream: string; engine: string }[]): string {
  const [first] = named;
  const which = named.map((n) => n.stream).join(', ');
  const engine = first?.engine ?? 'the streaming engine';
  return `This request reads the ${engine} stream ${which}, and a question over the SQL sources cannot read ${engine} streams yet: ${engine} stays single-source, so a stream is never combined with a table. Ask about ${which} in a session on the ${engine} target, or ask here about the tables only.`;
}

/** Rows of the combined result the view keeps, as a SQL target's preview does. */
const PREVIEW_ROWS = 50;

function sourcesRunOf(outcome: DagOutcome): NonNullable<Envelope['sources_run']> {
  return {
    parts: outcome.parts.map((p) => ({
      id: p.id,
      source: p.source,
      engine: p.engine,
      sql: p.sql,
      explain: p.explain,
      rows: p.rows,
      capped: p.capped,
      elapsed_ms: p.elapsedMs,
    })),
    combine_sql: outcome.kind === 'answer' ? (outcome.combine?.sql ?? null) : null,
    combine_ms: outcome.kind === 'answer' ? (outcome.combine?.elapsedMs ?? null) : null,
    combined_rows: outcome.kind === 'answer' ? outcome.rows.length : null,
  };
}

/** A reading with no plan or with doubts: over sources no model drafts instead, so the person is asked. */
function notConclusive(reading: Reading): Interrupt | null {
  if (reading.plan && reading.confidence === 'high') return null;
  const why = reading.doubts.length ? ` (${reading.doubts.join('; ')})` : '';
  return openQuestion(`I could not read this request as one query over the sources${why}. Could you say it with the tables' own words?`); // prettier-ignore
}

function ask(e: Envelope, question: string, interrupt: Interrupt = openQuestion(question)): Envelope {
  return { ...e, interrupt, sources_run: e.sources_run };
}

function openQuestion(question: string): Interrupt {
  return { type: 'need_clarification', question, choices: null, asked: { kind: 'open', question } };
}

function labelOf(sources: SqlSources, name: string): string {
  return sources.get(name)?.label ?? 'unknown engine';
}
