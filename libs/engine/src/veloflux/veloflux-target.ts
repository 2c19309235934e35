import { isDryRunId, isTmpPipelineId, TMP_PIPELINE_PREFIX, type SinkConfig, type TargetKind } from '@nl2p/envelope';
import {
  ManagerClient,
  ManagerError,
  type CreatePipelineRequest,
  type CreatePipelineSinkRequest,
} from '../manager-client';
import type { Catalog, DryRunReport, DryRunRequest, EngineTarget, StreamInfo, ValidationResult } from '../port';
import { removeDryRun, VelofluxDryRun, type DryRunOptions } from './dry-run/dry-run';
import { toFunctionInfos, toSyntaxRules, VELOFLUX_DIALECT_NOTES } from './catalog';
import { classifyEngineError, isSinkConfigError } from './classify';

/**
 * {@link EngineTarget} for veloFlux over its Manager REST API. Validation is a temporary
 * pipeline with a `nop` sink (CONTRACT §5.2); this class is the only place that creates or
 * deletes them, and it refuses any id without {@link TMP_PIPELINE_PREFIX} so it can never touch a
 * person's pipeline.
 */
export class VelofluxTarget implements EngineTarget {
  readonly kind: TargetKind = 'veloflux';
  /** {@inheritDoc EngineTarget.dryRun}; absent when dry runs are turned off. */
  readonly dryRun?: (request: DryRunRequest) => Promise<DryRunReport>;

  constructor(
    private readonly client: ManagerClient,
    dryRun?: DryRunOptions,
  ) {
    if (dryRun) {
      const runner = new VelofluxDryRun(client, dryRun);
      this.dryRun = (request) => {
        assertTmpId(request.id);
        return runner.run(request);
      };
    }
  }

  /** {@inheritDoc EngineTarget.listStreams} */
  async listStreams(): Promise<StreamInfo[]> {
    const streams = await this.client.listStreams();
    return streams.map((s) => ({ name: s.name, columns: s.schema.columns }));
  }

  /** {@inheritDoc EngineTarget.describeStream} */
  async describeStream(name: string): Promise<StreamInfo | null> {
    try {
      const res = await this.client.describeStream(name);
      return { name: res.stream, columns: res.spec.schema.columns };
    } catch (err) {
      if (err instanceof ManagerError && err.status === 404) return null;
      throw err;
    }
  }

  /** Functions (deduplicated, plus the window pseudo-functions), syntax rules and §7 notes. */
  async loadCatalog(): Promise<Catalog> {
    const [functions, syntax] = await Promise.all([this.client.listFunctions(), this.client.syntaxCapabilities()]);
    return {
      dialect: 'veloflux',
      functions: toFunctionInfos(functions),
      syntax: toSyntaxRules(syntax.constructs),
      dialectNotes: [...VELOFLUX_DIALECT_NOTES],
    };
  }

  /**
   * Creates the temp pipeline from the request the person will apply (their sink and output, the
   * temp id), so its plan is the plan of that pipeline; the engine only builds sinks on create and
   * connects nothing until a start, which never comes. A 400 is a verdict on the SQL and comes
   * back as `{ok: false}`, except a refusal of the sink settings: the SQL is then judged with a
   * `nop` sink and the sink's refusal comes back beside an accepted result. Anything else
   * (outage, busy lock, client bug) is thrown after a best-effort delete.
   */
  async validate(sql: string, tmpId: string, sink: SinkConfig): Promise<ValidationResult> {
    assertTmpId(tmpId);
    const applied = this.pipelineRequest(sql, tmpId, sink);
    const verdict = await this.createJudged(applied);
    if (verdict.ok || !isSinkConfigError(verdict.error)) return verdict;
    const withNopSink = await this.createJudged({ ...applied, sinks: [{ type: 'nop' }] });
    return withNopSink.ok ? { ...withNopSink, sinkError: verdict.error } : withNopSink;
  }

  private async createJudged(request: CreatePipelineRequest): Promise<ValidationResult> {
    try {
      await this.createReplacingStale(request);
      return { ok: true, tmpId: request.id };
    } catch (err) {
      if (err instanceof ManagerError && !err.unavailable && (err.status === 400 || isSinkConfigError(err.body))) {
        // A sink/encoder error is raised after the spec is persisted and is not rolled back
        // (recorded exchanges: orphans), so a refusal can leave a record behind.
        await this.deleteIgnoringMissing(request.id);
        return { ok: false, tmpId: request.id, kind: classifyEngineError(err.body), error: err.body };
      }
      await this.deleteIgnoringMissing(request.id).catch(() => {
        // Best effort: the original failure matters more, and the janitor sweeps the prefix.
      });
      throw err;
    }
  }

  /** `GET /pipelines/:id/explain`. */
  explain(tmpId: string): Promise<string> {
    return this.client.explainPipeline(tmpId);
  }

  /** {@inheritDoc EngineTarget.listTmpPipelines} */
  async listTmpPipelines(): Promise<string[]> {
    const [pipelines, streams] = await Promise.all([this.client.listPipelines(), this.client.listStreams()]);
    const ids = new Set([...pipelines.map((p) => p.id), ...streams.map((s) => s.name)]);
    return [...ids].filter(isTmpPipelineId).sort();
  }

  /** {@inheritDoc EngineTarget.cleanup}; a dry run's name deletes its input stream too. */
  async cleanup(tmpId: string): Promise<void> {
    assertTmpId(tmpId);
    if (isDryRunId(tmpId)) await removeDryRun(this.client, tmpId);
    else await this.deleteIgnoringMissing(tmpId);
  }

  /**
   * The `POST /pipelines` body the person applies; event time stays off like during validation.
   * The sink publishes full rows and skips empty batches: without `omit_if_empty` the engine's
   * MQTT sink publishes `[]` for every input the `WHERE` drops (recorded exchanges, README). The
   * `output` shape is the one the recorded Manager accepted (`pipeline_create_full`).
   */
  buildPipelineRequest(sql: string, pipelineId: string, sink: SinkConfig): Record<string, unknown> {
    return { ...this.pipelineRequest(sql, pipelineId, sink) };
  }

  private pipelineRequest(sql: string, pipelineId: string, sink: SinkConfig): CreatePipelineRequest {
    return {
      id: pipelineId,
      sql,
      sinks: [{ type: sink.type, props: sink.props, output: { ...DEFAULT_SINK_OUTPUT } }],
      options: { eventtime: { enabled: false } },
    };
  }

  /**
   * Temp ids are deterministic per session/turn/attempt, so a 409 `already exists` means an
   * earlier run of this same attempt created it (a worker that died before checkpointing, an
   * answer lost on the way back). One built from the same SQL is reused, so a re-delivered job
   * never creates a second pipeline; anything else (a stored-but-unbuilt orphan, other SQL) is
   * replaced, once.
   */
  private async createReplacingStale(request: CreatePipelineRequest): Promise<void> {
    try {
      await this.client.createPipeline(request);
    } catch (err) {
      if (!(err instanceof ManagerError && err.status === 409 && err.body.includes('already exists'))) throw err;
      if (await this.isBuiltFrom(request)) return;
      await this.deleteIgnoringMissing(request.id);
      await this.client.createPipeline(request);
    }
  }

  /**
   * The stored pipeline has this SQL and sink types and was built (orphans of a failed create
   * cannot explain).
   */
  private async isBuiltFrom({ id, sql, sinks }: CreatePipelineRequest): Promise<boolean> {
    const sinkTypes = (list: readonly { type: string }[] | undefined) => (list ?? []).map((s) => s.type).join();
    try {
      const stored = await this.client.getPipeline(id);
      if (stored.spec.sql !== sql || sinkTypes(stored.spec.sinks) !== sinkTypes(sinks)) return false;
      await this.client.explainPipeline(id);
      return true;
    } catch (err) {
      if (err instanceof ManagerError && err.status === 404) return false;
      throw err;
    }
  }

  private async deleteIgnoringMissing(id: string): Promise<void> {
    try {
      await this.client.deletePipeline(id);
    } catch (err) {
      if (err instanceof ManagerError && err.status === 404) return;
      throw err;
    }
  }
}

/** `sinks[].output` of the applied pipeline: whole rows, nothing published for an empty batch. */
export const DEFAULT_SINK_OUTPUT = { mode: 'full', omit_if_empty: true } as const satisfies NonNullable<
  CreatePipelineSinkRequest['output']
>;

function assertTmpId(id: string): void {
  if (!isTmpPipelineId(id)) {
    throw new Error(`refusing to touch pipeline ${JSON.stringify(id)}: temp ids start with ${TMP_PIPELINE_PREFIX}`);
  }
}
