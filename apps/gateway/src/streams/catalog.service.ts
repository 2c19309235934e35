import {
  BadGatewayException,
  BadRequestException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  type OnModuleDestroy,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@nl2p/config';
import { TargetKind, type TargetList } from '@nl2p/envelope';
import { configuredTargets, targetProfile, type EngineTarget, type StreamInfo } from '@nl2p/engine';
import { probeTarget } from './target-status';

/** Same bound as a turn's `stream` field. */
const MAX_STREAM_NAME = 256;

/** What `GET /v1/streams` answers: the target's streams (or tables) with their columns. */
export interface StreamList {
  target: TargetKind;
  /** What the target calls them: `stream` (veloFlux) or `table` (SQL targets). */
  source_noun: 'stream' | 'table';
  streams: StreamInfo[];
}

/**
 * The engines' catalogs, read straight from each target's adapter (the same `listStreams` /
 * `describeStream` the validator grounds a session with), so looking around needs no session and
 * no turn. Everything target-specific comes from the registry.
 */
@Injectable()
export class CatalogService implements OnModuleDestroy {
  private readonly logger = new Logger(CatalogService.name);
  private readonly engines = new Map<TargetKind, EngineTarget>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The target named by a query parameter (the deployment's default when absent); 400 otherwise. */
  target(name: string | undefined): TargetKind {
    if (name === undefined || name === '') return this.config.target;
    const parsed = TargetKind.safeParse(name);
    if (!parsed.success) {
      throw new BadRequestException(`target must be one of: ${TargetKind.options.join(', ')}`);
    }
    const profile = targetProfile(parsed.data);
    if (!profile.configured(this.config)) {
      const hint = profile.enabledBy ? ` (${profile.enabledBy} is unset)` : '';
      throw new BadRequestException(`target ${parsed.data} is not configured on this server${hint}`);
    }
    return parsed.data;
  }

  /** Targets configured here, the default first, each marked reachable or not (and what to fix). */
  async targets(): Promise<TargetList> {
    const kinds = configuredTargets(this.config);
    const ordered = [
      ...kinds.filter((k) => k === this.config.target),
      ...kinds.filter((k) => k !== this.config.target),
    ];
    return {
      default: this.config.target,
      targets: await Promise.all(
        ordered.map(async (kind) => {
          const profile = targetProfile(kind);
          const status = await probeTarget(kind, this.engine(kind), this.config);
          return {
            kind,
            label: profile.label,
            source_noun: profile.sourceNoun,
            streaming: profile.streaming,
            ...status,
          };
        }),
      ),
      sources: this.sources(),
    };
  }

  /** The named SQL sources, kept apart from the targets: no secret (a URL) is listed, only name and engine. */
  private sources(): NonNullable<TargetList['sources']> {
    return this.config.sources.list.map((s) => ({
      name: s.name,
      engine: s.engine,
      label: targetProfile(s.engine).label,
    }));
  }

  async list(kind: TargetKind): Promise<StreamList> {
    const streams = await this.ask(kind, (engine) => engine.listStreams());
    return { target: kind, source_noun: targetProfile(kind).sourceNoun, streams };
  }

  async describe(kind: TargetKind, name: string): Promise<StreamInfo & { target: TargetKind }> {
    if (name.length > MAX_STREAM_NAME)
      throw new BadRequestException(`a stream name has at most ${MAX_STREAM_NAME} characters`);
    const info = await this.ask(kind, (engine) => engine.describeStream(name));
    if (!info) {
      const noun = targetProfile(kind).sourceNoun;
      throw new NotFoundException(`no ${noun} named '${name}' on ${targetProfile(kind).label}`);
    }
    return { target: kind, ...info };
  }

  /** The target's engine, created once and shared (runs of an answer use the same one). */
  engineFor(kind: TargetKind): EngineTarget {
    return this.engine(kind);
  }

  /**
   * Every table (or stream) of the configured targets with its columns, the default target's
   * first where two share a name: what a glossary term is checked against (a tenant's terms serve
   * whichever target a session reads). A target that cannot be read is left out, and when none
   * can, the 502 says so.
   */
  async allTables(): Promise<Record<string, StreamInfo['columns']>> {
    const kinds = configuredTargets(this.config).sort(
      (a, b) => Number(b === this.config.target) - Number(a === this.config.target),
    );
    const read = await Promise.allSettled(kinds.map((kind) => this.list(kind)));
    const lists = read.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    if (!lists.length)
      throw new BadGatewayException('no engine could be read to check the definition; try again later');
    const tables: Record<string, StreamInfo['columns']> = {};
    for (const list of lists) for (const s of list.streams) tables[s.name] ??= s.columns;
    return tables;
  }

  private engine(kind: TargetKind): EngineTarget {
    let engine = this.engines.get(kind);
    if (!engine) {
      engine = targetProfile(kind).create(this.config, {});
      this.engines.set(kind, engine);
    }
    return engine;
  }

  /** An engine that cannot answer is a 502 naming it; the details go to the log, not the client. */
  private async ask<T>(kind: TargetKind, call: (engine: EngineTarget) => Promise<T>): Promise<T> {
    try {
      return await call(this.engine(kind));
    } catch (err) {
      this.logger.warn(`reading the ${kind} catalog failed: ${err instanceof Error ? err.message : String(err)}`);
      throw new BadGatewayException(`the ${targetProfile(kind).label} engine could not be read; try again later`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    for (const engine of this.engines.values()) {
      if ('close' in engine && typeof engine.close === 'function') await (engine.close as () => Promise<void>)();
    }
    this.engines.clear();
  }
}
