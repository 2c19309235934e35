import {
  DRAFT_SYSTEM_MARK,
  PLAN_SYSTEM_MARK,
  REVISE_SYSTEM_MARK,
  ROUTER_SYSTEM_MARK,
  type ReviseOutput,
  type RouterOutput,
} from '@nl2p/prompts';
import type { ScriptedLlm, ScriptedReply, ScriptedRequest } from '@nl2p/testing';

/** A scripted answer: the value, a raw reply (errors, delays), or a function computing either. */
export type Scripted<T> = T | ScriptedReply | ((req: ScriptedRequest) => T | ScriptedReply);

export type LlmCallKind = 'router' | 'draft' | 'revise' | 'plan';

/**
 * Scripts the three LLM roles of a conversation: each call of a kind takes the next scripted
 * answer of that kind. What each call was sent is kept, so tests can assert on the prompts.
 */
export class LlmScript {
  readonly routes: Scripted<RouterOutput>[] = [];
  readonly drafts: Scripted<string>[] = [];
  readonly revisions: Scripted<ReviseOutput>[] = [];
  /** Plan mode's slot plans (drafts and revisions alike). */
  readonly plans: Scripted<Record<string, unknown>>[] = [];
  readonly calls: { kind: LlmCallKind; request: ScriptedRequest }[] = [];

  constructor(llm: ScriptedLlm) {
    llm.handler = (req) => this.answer(req);
  }

  route(...r: Scripted<RouterOutput>[]): this {
    this.routes.push(...r);
    return this;
  }
  draft(...d: Scripted<string>[]): this {
    this.drafts.push(...d);
    return this;
  }
  revise(...r: Scripted<ReviseOutput>[]): this {
    this.revisions.push(...r);
    return this;
  }

  plan(...p: Scripted<Record<string, unknown>>[]): this {
    this.plans.push(...p);
    return this;
  }

  callsOf(kind: LlmCallKind) {
    return this.calls.filter((c) => c.kind === kind).map((c) => c.request);
  }

  private answer(req: ScriptedRequest): ScriptedReply {
    const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
    const kind: LlmCallKind | undefined = system.includes(ROUTER_SYSTEM_MARK)
      ? 'router'
      : system.includes(DRAFT_SYSTEM_MARK)
        ? 'draft'
        : system.includes(REVISE_SYSTEM_MARK)
          ? 'revise'
          : system.includes(PLAN_SYSTEM_MARK)
            ? 'plan'
            : undefined;
    if (!kind) return { status: 400, body: 'unexpected prompt', headers: { 'x-should-retry': 'false' } };
    this.calls.push({ kind, request: req });
    const queues: Record<LlmCallKind, unknown[]> = {
      router: this.routes,
      draft: this.drafts,
      revise: this.revisions,
      plan: this.plans,
    };
    const queue = queues[kind];
    const scripted = queue.shift();
    // A function runs when the call arrives: it can change the world (e.g. the engine) first.
    const next = typeof scripted === 'function' ? scripted(req) : scripted;
    if (next === undefined)
      return { status: 400, body: `no scripted ${kind} answer left`, headers: { 'x-should-retry': 'false' } };
    if (typeof next === 'string') return { content: next };
    if (isReply(next)) return next;
    return { content: JSON.stringify(next) };
  }
}

function isReply(v: unknown): v is ScriptedReply {
  return typeof v === 'object' && v !== null && ('content' in v || 'status' in v || 'hang' in v);
}
