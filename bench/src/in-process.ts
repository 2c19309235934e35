import type { Redis } from 'ioredis';
import { createHash, randomUUID } from 'node:crypto';
import type { AppConfig } from '@nl2p/config';
import type { Catalog } from '@nl2p/engine';
import { newSessionEnvelope, type Envelope, type NodeName, type UserInput } from '@nl2p/envelope';
import { END, GRAPH, preTurn, remember } from '@nl2p/graph';
import {
  Engines,
  Grounding,
  createLlmClient,
  drafterNodes,
  explainerNodes,
  routerNodes,
  answerNodes,
  validatorNodes,
} from '@nl2p/nodes';
import type { NodeHandlers, NodeRunContext } from '@nl2p/workflow-runtime';
import { CatalogCache, RedisKeys } from '@nl2p/session-store';

/**
 * The catalog cache without Redis: same contract as {@link CatalogCache} (content hash, reload
 * after the TTL), held in this process's memory.
 */
export class MemoryCatalogCache extends CatalogCache<Catalog> {
  private readonly bodies = new Map<string, string>();
  private readonly current = new Map<string, { hash: string; until: number }>();

  constructor(private readonly ttlMs: number) {
    // The Redis-backed parent is never reached: both of its methods are replaced below.
    super(null as unknown as Redis, new RedisKeys('in-process'), Math.ceil(ttlMs / 1000));
  }

  override async currentHash(target: string, engine: string, load: () => Promise<Catalog>): Promise<string> {
    const key = `${target}:${engine}`;
    const pointer = this.current.get(key);
    if (pointer && pointer.until > Date.now() && this.bodies.has(`${target}:${pointer.hash}`)) return pointer.hash;
    const body = JSON.stringify(await load());
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
    this.bodies.set(`${target}:${hash}`, body);
    this.current.set(key, { hash, until: Date.now() + this.ttlMs });
    return hash;
  }

  override async get(target: string, hash: string): Promise<Catalog | null> {
    const body = this.bodies.get(`${target}:${hash}`);
    return body ? (JSON.parse(body) as Catalog) : null;
  }
}

/**
 * The workflow graph executed by direct function calls in one process: the same node handlers
 * and the same edge functions from `GRAPH` that the services run, on the same LLM and engine
 * (over their HTTP edges), but with no gateway, no queues, no Redis and no checkpoints.
 */
export class InProcessGraph {
  private readonly engines: Engines;
  private readonly handlers: NodeHandlers;

  constructor(private readonly config: AppConfig) {
    this.engines = new Engines(config);
    const grounding = new Grounding(this.engines, new MemoryCatalogCache(config.retention.catalogTtlSeconds * 1000));
    const llm = createLlmClient(config);
    this.handlers = {
      // The reading as the services use it under the same configuration.
      ...validatorNodes({
        engines: this.engines,
        grounding,
        reading: {
          linking: config.workflow.linking,
          mode: config.workflow.draftMode,
          trustLinks: config.workflow.planTrustLinks,
        },
      }),
      ...routerNodes({ llm, linking: config.workflow.linking }),
      ...answerNodes({ llm, writer: config.workflow.answerWriter }),
      ...drafterNodes({
        llm,
        grounding,
        planning: {
          mode: config.workflow.draftMode,
          trustLinks: config.workflow.planTrustLinks,
          profileOf: (e) => this.engines.profile(e.target),
        },
      }),
      ...explainerNodes({ engines: this.engines }),
    };
  }

  newSession(): Envelope {
    return newSessionEnvelope({
      sessionId: randomUUID().replaceAll('-', ''),
      target: this.config.target,
      maxAttempts: this.config.workflow.maxAttempts,
      sink: this.config.sink,
    });
  }

  /** One turn: `pre_turn`, then node after node along the graph's edges until END. */
  async turn(
    previous: Envelope,
    input: UserInput,
  ): Promise<{ envelope: Envelope; nodes: NodeName[]; node_ms: number[] }> {
    const decision = preTurn(previous, input);
    if (decision.kind !== 'run') throw new Error(`in-process turn did not run: ${JSON.stringify(decision)}`);
    const ctx: NodeRunContext = {
      emit: async () => undefined,
      signal: new AbortController().signal,
      checkpoint: async (e) => e,
    };
    let node: NodeName = decision.first;
    let envelope: Envelope = { ...decision.envelope, node, status: 'running' };
    const nodes: NodeName[] = [];
    const node_ms: number[] = [];
    for (;;) {
      const handler = this.handlers[node];
      if (!handler) throw new Error(`no handler for node ${node}`);
      const started = performance.now();
      const produced = await handler(envelope, ctx);
      node_ms.push(performance.now() - started);
      nodes.push(node);
      const next = GRAPH[node].next(produced);
      if (next === END) {
        const status = produced.interrupt ? 'waiting' : 'idle';
        const said = produced.interrupt?.question ?? produced.answer?.text ?? produced.draft.sql ?? 'done';
        return { envelope: remember({ ...produced, node, status }, 'assistant', said), nodes, node_ms };
      }
      envelope = { ...produced, node: next, status: 'running' };
      node = next;
    }
  }

  async close(): Promise<void> {
    await this.engines.close();
  }
}
