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

  /** Targets a session may choose here (and whose catalogs can be read), the default first. */
  targets(): TargetList {
    const kinds = configuredTargets(this.config);
    const ordered = [
      ...kinds.filter((k) => k === this.config.target),
      ...kinds.filter((k) => k !== this.config.target),
    ];
    return {
      default: this.config.target,
      targets: ordered.map((kind) => {
        const profile = targetProfile(kind);
        return { kind, label: profile.label, source_noun: profile.sourceNoun, streaming: profile.streaming };
      }),
    };
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
