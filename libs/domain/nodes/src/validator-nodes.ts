import { tmpPipelineIdOf, type Envelope } from '@nl2p/envelope';
import { matchStream } from '@nl2p/graph';
import type { NodeHandlers } from '@nl2p/workflow-runtime';
import { UnsafeSqlError, assertSingleSelect, prevalidate } from '@nl2p/sql-guard';
import type { Engines } from './clients';
import type { Grounding } from './grounding';
import { linkSchemaFor } from './plan-drafting';
import { linkRequest, proposePlan } from '@nl2p/linking';

export interface ValidatorDeps {
  engines: Engines;
  grounding: Grounding;
  /** Pick the table a request's words point at when several exist (LINK_SOURCES); default on. */
  linkSources?: boolean;
}

/** Nodes run by the `validator` service: grounding reads, local and engine validation. */
export function validatorNodes({ engines, grounding, linkSources = true }: ValidatorDeps): NodeHandlers {
  /** The one source the request's words point at (no `need_stream` then), or undefined. */
  const linkedSource = async (e: Envelope): Promise<string | undefined> => {
    if (!linkSources || !e.request || e.streams.length < 2) return undefined;
    const schema = await linkSchemaFor(e, grounding, engines.profile(e.target));
    const table = proposePlan(linkRequest(e.request, schema), schema).table;
    return table && e.streams.includes(table) ? table : undefined;
  };
  return {
    async init_session(e) {
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
        digest_hash: digestHash,
        active_stream: stillThere ? e.active_stream : null,
        stream_schema: stillThere ? e.stream_schema : null,
      };
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

    async ensure_active_stream(e) {
      const engine = engines.for(e.target);
      const candidate =
        (e.requested_stream && matchStream(e.streams, e.requested_stream)) ||
        // A request whose words point at one table is about that table, even when an earlier
        // turn of the session used another one.
        (await linkedSource(e)) ||
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
      const result = await engines.for(base.target).validate(sql, tmpId, base.sink);
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
          draft: { ...base.draft, assumptions: [...base.draft.assumptions, ...sinkNote] },
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
