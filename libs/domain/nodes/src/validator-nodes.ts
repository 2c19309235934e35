import { emptyDraft, tmpPipelineIdOf, type Envelope, type Reading, type TableFacts } from '@nl2p/envelope';
import { matchStream } from '@nl2p/graph';
import type { NodeHandlers } from '@nl2p/workflow-runtime';
import { UnsafeSqlError, assertSingleSelect, prevalidate } from '@nl2p/sql-guard';
import type { StreamInfo } from '@nl2p/engine';
import type { Engines } from './clients';
import { dryRunCandidate } from './dry-run';
import type { Grounding } from './grounding';
import { compilePlan, withPlanDraft, withPlanFailure } from './plan-drafting';
import { applyReply } from './conversation/apply-reply';
import { readingResolutions } from './conversation/resolutions';
import { sameColumnValueIn, withReusedPlan } from './examples/reuse-plan';
import { initOverSources, runOverSources } from './sources-nodes';
import { currentReading, linkSchemaFor, readRequest, readsRequests, tablesOf, type ReadingOptions } from './reading';

/**
 * The streams of the deployment's streaming targets, read only when a request over the sources
 * was not understood (to tell a stream named there from an unknown word). A streaming engine that
 * does not answer has none: the person then gets the usual question.
 */
async function streamsElsewhere(engines: Engines): Promise<{ stream: string; engine: string }[]> {
  const streaming = engines.available().filter((kind) => engines.profile(kind).streaming);
  const lists = await Promise.all(
    streaming.map(async (kind) => {
      const streams = await engines
        .for(kind)
        .listStreams()
        .catch(() => []);
      return streams.map((s) => ({ stream: s.name, engine: engines.profile(kind).label }));
    }),
  );
  return lists.flat();
}

export interface ValidatorDeps {
  engines: Engines;
  grounding: Grounding;
  /**
   * How the request's reading is used (LINKING, DRAFT_MODE, PLAN_TRUST_LINKS). Default: linking
   * on (the table a request's words point at is picked when several exist), free SQL, no trust.
   */
  reading?: Partial<ReadingOptions>;
}

/** Nodes run by the `validator` service: grounding reads, the request's reading, local and engine validation. */
export function validatorNodes({ engines, grounding, reading: given = {} }: ValidatorDeps): NodeHandlers {
  const options: ReadingOptions = { linking: true, mode: 'sql', trustLinks: false, ...given };
  /** What the linker reads a request over; a session over all sources reads its sources' values. */
  const schemaOf = (e: Envelope) =>
    linkSchemaFor(e, grounding, engines.profile(e.target), () => engines.sources().columnValues());
  /** The reading of the request this turn serves: the envelope's, or read now (the request changed). */
  const readingOf = async (e: Envelope) => {
    const current = currentReading(e);
    if (current || !e.request || !readsRequests(options)) return current;
    return readRequest(e.request, await schemaOf(e), options, readingResolutions(e));
  };
  const answered = async (e: Envelope): Promise<Envelope> => {
    const schema = await schemaOf(e);
    const readAlone = (text: string) => readRequest(text, schema, options, readingResolutions(e)).plan;
    return applyReply(e, schema, readAlone);
  };
  /** The reading with an earlier confirmed plan when the request is that question with other values. */
  const reusing = async (e: Envelope, reading: Reading): Promise<Reading> => {
    const candidates = e.close_examples.filter((x) => x.plan !== null);
    if (!candidates.length || e.sources === 'all') return reading;
    const schema = await schemaOf(e);
    return withReusedPlan(reading, candidates, sameColumnValueIn(schema));
  };
  /** The one source the request's words point at (no `need_stream` then), or undefined. */
  const linkedSource = (e: Envelope): string | undefined => {
    const table = e.reading?.table;
    if (!options.linking || e.streams.length < 2 || !table) return undefined;
    return e.streams.includes(table) ? table : undefined;
  };
  return {
    async init_session(e) {
      if (e.sources === 'all') return initOverSources(e, engines.sources());
      const engine = engines.for(e.target);
      const [streams, digestHash] = await Promise.all([engine.listStreams(), grounding.currentHash(e.target)]);
      const names = streams.map((s) => s.name);
      const stillThere = e.active_stream && names.includes(e.active_stream);
      return {
        ...e,
        streams: names,
        // Every source's columns: the linker picks the one a request's words point at, and SQL
        // targets may join them.
        tables: Object.fromEntries(streams.map((s) => [s.name, s.columns])),
        table_facts: Object.fromEntries(
          streams.flatMap((s) => {
            const facts = factsOf(s);
            return facts ? [[s.name, facts] as const] : [];
          }),
        ),
        digest_hash: digestHash,
        active_stream: stillThere ? e.active_stream : null,
        stream_schema: stillThere ? e.stream_schema : null,
      };
    },

    /**
     * The request's Reading (ARCHITECTURE §7a), read once for every later node. When it settles
     * the intent (a query) and is trusted, the turn skips the router: the intent is set here.
     */
    async link(given) {
      // A reply to a clarification is read against what was asked first; the request (and the
      // session's resolutions) it leaves is what gets read.
      const e = given.reply ? await answered(given) : given;
      if (e.interrupt || e.answer) return e;
      const read = await readingOf({ ...e, reading: null });
      // A reply reads the request against its question; only a new request reuses an earlier plan.
      const reading = read && !given.reply ? await reusing(e, read) : read;
      const settles = options.linking && reading?.intent === 'nl2sql' && reading.trusted;
      // An answer to the drafter's own question leaves the request, and the intent it had, as they were.
      const kept = given.reply && e.request === given.request && e.answers.length > given.answers.length;
      return { ...e, reading, intent: settles ? 'nl2sql' : kept ? given.intent : null };
    },

    /**
     * The trusted reading's plan, checked against the catalog and compiled by the target's
     * compiler: the draft, with no model. A plan that does not compile is a local failure for
     * repair, as a drafted plan's would be; in `auto` mode the drafter takes over instead.
     */
    async compile_plan(e, ctx) {
      const reading = currentReading(e);
      if (!reading?.plan) return { ...e, draft: emptyDraft() };
      const compiled = compilePlan(reading.plan, tablesOf(e), engines.profile(e.target));
      if (!compiled.ok) {
        return options.mode === 'auto' ? { ...e, draft: emptyDraft() } : withPlanFailure(e, compiled.errors);
      }
      // The compiled SQL is the draft the person watches arrive (one delta: it is not generated).
      await ctx.emit({ type: 'draft_delta', node: 'compile_plan', delta: compiled.sql });
      return withPlanDraft(e, { ...compiled, assumptions: [...reading.assumptions, ...compiled.assumptions] });
    },

    /** A session over all sources: the request read over every source's tables, split, run and combined. */
    async run_sources(e, ctx) {
      const schema = await schemaOf(e);
      // Over sources nothing else reads the request (no model drafts), so it is read here when unread.
      const reading =
        currentReading(e) ?? readRequest(e.request ?? '', schema, { ...options, linking: true }, readingResolutions(e));
      return runOverSources({ ...e, reading }, reading, schema, engines.sources(), ctx.signal, () =>
        streamsElsewhere(engines),
      );
    },

    async list_streams(e) {
      const engine = engines.for(e.target);
      const streams = await engine.listStreams();
      const text = streams.length
        ? `Streams: ${streams.map((s) => `${s.name} (${s.columns.length} columns)`).join(', ')}`
        : 'The engine has no streams yet.';
      return {
        ...e,
        streams: streams.map((s) => s.name),
        answer: { kind: 'streams', text, data: streams.map((s) => ({ name: s.name, columns: s.columns })) },
      };
    },

    async describe_stream(e) {
      const engine = engines.for(e.target);
      const name = e.requested_stream ?? e.active_stream;
      if (!name) return askForStream(e, 'Which stream should I describe?');
      const info = await engine.describeStream(name);
      if (!info) return askForStream(e, `There is no stream named '${name}'. Which one do you mean?`);
      const text = `Stream ${info.name}: ${info.columns.map((c) => `${c.name} ${c.data_type}`).join(', ')}`;
      return {
        ...e,
        active_stream: info.name,
        stream_schema: { name: info.name, columns: info.columns },
        answer: { kind: 'schema', text, data: { name: info.name, columns: info.columns } },
      };
    },

    async ensure_active_stream(given) {
      const engine = engines.for(given.target);
      // A request that changed since `link` (a stream answer resumes here) is read again.
      const e = { ...given, reading: await readingOf(given) };
      const candidate =
        (e.requested_stream && matchStream(e.streams, e.requested_stream)) ||
        // A request whose words point at one table is about that table, even when an earlier
        // turn of the session used another one.
        linkedSource(e) ||
        (e.active_stream && matchStream(e.streams, e.active_stream)) ||
        (e.streams.length === 1 ? e.streams[0] : undefined);
      if (!candidate) {
        return askForStream(
          e,
          e.streams.length
            ? 'Which stream should the pipeline read from?'
            : 'The engine has no streams; create one first, then ask again.',
        );
      }
      if (e.stream_schema?.name === candidate) return { ...e, active_stream: candidate };
      const info = await engine.describeStream(candidate);
      if (!info) return askForStream(e, `Stream '${candidate}' is gone. Which stream should the pipeline read from?`);
      return { ...e, active_stream: info.name, stream_schema: { name: info.name, columns: info.columns } };
    },

    async prevalidate(e) {
      const catalog = await grounding.catalog(e.target, e.digest_hash);
      const schema = e.stream_schema;
      const result = prevalidate(e.draft.sql ?? '', {
        dialect: catalog.dialect,
        streams: e.streams,
        stream: schema?.name ?? e.active_stream ?? '',
        columns: schema?.columns ?? [],
        columnsByTable: e.tables,
        functions: catalog.functions,
      });
      if (result.ok) {
        return {
          ...e,
          draft: { ...e.draft, sql: result.sql },
          validation: { ...e.validation, error: null, error_stage: null },
        };
      }
      return failAttempt(e, 'local', result.errors.join('\n'), result.sql);
    },

    async validate(e, ctx) {
      const sql = e.draft.sql ?? '';
      // The last line of defence, right before anything is sent: prevalidate has already said
      // yes, but nothing but a single SELECT may ever reach an engine, whatever changed since.
      try {
        assertSingleSelect(sql, e.target);
      } catch (err) {
        if (err instanceof UnsafeSqlError) return failAttempt(e, 'local', err.message, sql);
        throw err;
      }
      const tmpId = tmpPipelineIdOf(e);
      // Checkpoint the id before creating (ARCHITECTURE §5): if this worker dies right after the
      // create, a cancel, a final failure or the next turn finds the id and deletes the pipeline,
      // and the re-delivered job resumes here and reuses it instead of creating a second one.
      const base =
        e.validation.tmp_pipeline_id === tmpId
          ? e
          : await ctx.checkpoint({ ...e, validation: { ...e.validation, ok: false, tmp_pipeline_id: tmpId } });
      const engine = engines.for(base.target);
      const result = await engine.validate(sql, tmpId, base.sink);
      // Accepted is not yet validated on a streaming engine: the candidate runs on sample rows.
      const dryRun = result.ok ? await dryRunCandidate(engine, base, sql) : null;
      if (dryRun && 'failure' in dryRun) {
        await engine.cleanup(tmpId);
        return failAttempt(base, 'engine', dryRun.failure, sql);
      }
      const dryRunNotes = dryRun?.notes ?? [];
      if (result.ok) {
        // The SQL is fine but the sink is not: the person learns it now, not when applying.
        const sinkNote = result.sinkError
          ? [
              `The engine refused the sink settings (${result.sinkError}); the SQL was checked with a nop sink ` +
                'instead, and the plan shown has that sink. Correct the sink before applying the pipeline request.',
            ]
          : [];
        return {
          ...base,
          draft: { ...base.draft, assumptions: [...base.draft.assumptions, ...sinkNote, ...dryRunNotes] },
          validation: { ...base.validation, ok: true, error: null, error_stage: null, tmp_pipeline_id: tmpId },
          // SQL targets ran the query to validate it: its first rows are the preview.
          explain: {
            ...base.explain,
            preview: result.preview ?? null,
            preview_error: result.previewError ?? null,
          },
        };
      }
      return failAttempt(base, 'engine', result.error, sql);
    },
  };
}

function askForStream(e: Envelope, question: string): Envelope {
  return { ...e, interrupt: { type: 'need_stream', question, choices: e.streams } };
}

function failAttempt(e: Envelope, stage: 'local' | 'engine', error: string, sql: string): Envelope {
  return {
    ...e,
    validation: {
      ...e.validation,
      ok: false,
      error,
      error_stage: stage,
      tmp_pipeline_id: null,
      failures: [...e.validation.failures, { attempt: e.validation.attempt, sql, stage, error }],
    },
  };
}

/** A table's comment and declared keys, for the envelope; null when the catalog has none. */
function factsOf(s: StreamInfo): TableFacts | null {
  if (!s.comment && !s.primaryKey?.length && !s.foreignKeys?.length) return null;
  return {
    ...(s.comment ? { comment: s.comment } : {}),
    ...(s.primaryKey?.length ? { primary_key: s.primaryKey } : {}),
    ...(s.foreignKeys?.length ? { foreign_keys: s.foreignKeys } : {}),
  };
}
