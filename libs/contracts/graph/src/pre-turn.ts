import {
  emptyDraft,
  emptyExplain,
  emptyMetrics,
  freshValidation,
  type Envelope,
  type NodeName,
  type UserInput,
} from '@nl2p/envelope';
import { remember } from './history';

/** What the gateway does with a turn's input, decided without I/O. */
export type PreTurnDecision =
  /** Run the workflow from `first` with this envelope. */
  | { kind: 'run'; envelope: Envelope; first: NodeName }
  /** The turn ends at once (a confirmation or a refusal): nothing to enqueue. */
  | { kind: 'done'; envelope: Envelope }
  /** The input does not fit the session's state; nothing changes. */
  | { kind: 'reject'; message: string };

/** How a clarification answer is joined to the request it answers (a line of its own). */
export const CLARIFICATION_MARKER = 'Clarification:';

const YES = /^\s*(y|yes|ok|okay|confirm|confirmed|looks good|lgtm)\s*[.!]?\s*$/i;
const NO = /^\s*(n|no|cancel|discard|reject)\s*[.!]?\s*$/i;

/**
 * `pre_turn` (ARCHITECTURE §3): applies the person's input to the pending interrupt.
 * A confirm ends the turn; feedback revises with a fresh budget; a stream answer naming a real
 * stream resumes the original request; a clarification answer is joined to the original request;
 * anything else is a new request.
 */
export function preTurn(previous: Envelope, input: UserInput, now = new Date()): PreTurnDecision {
  const pending = previous.interrupt;
  const text = input.text?.trim() || undefined;
  const feedback = input.feedback?.trim() || undefined;

  const base: Envelope = {
    ...previous,
    turn_id: previous.turn_id + 1,
    status: 'running',
    updated_at: now.toISOString(),
    user_input: input,
    interrupt: null,
    answer: null,
    error: null,
    feedback: null,
    metrics: emptyMetrics(),
  };

  if (pending?.type === 'need_confirm') {
    if (input.confirm === true || (text && YES.test(text) && !feedback)) {
      return { kind: 'done', envelope: remember({ ...base, status: 'idle' }, 'user', 'confirmed') };
    }
    if (input.confirm === false || (text && NO.test(text) && !feedback)) {
      return {
        kind: 'done',
        envelope: remember(
          {
            ...base,
            status: 'idle',
            draft: emptyDraft(),
            explain: emptyExplain(),
            answer: { kind: 'message', text: 'Discarded. Describe what you want instead.' },
          },
          'user',
          'rejected the draft',
        ),
      };
    }
    if (feedback) {
      return {
        kind: 'run',
        first: 'revise_sql',
        envelope: remember(
          // The previous plan and request were for SQL this feedback replaces: nothing may be shown
          // as this turn's plan until the engine accepts a revision.
          { ...base, feedback, validation: freshValidation(previous.validation.max_attempts), explain: emptyExplain() },
          'user',
          `feedback: ${feedback}`,
        ),
      };
    }
  }

  if (pending?.type === 'need_stream') {
    const chosen = input.stream ?? text;
    const stream = chosen ? matchStream(previous.streams, chosen) : undefined;
    if (input.stream !== undefined && !stream) {
      return {
        kind: 'reject',
        message: `unknown stream '${input.stream}'; choose one of: ${previous.streams.join(', ')}`,
      };
    }
    if (stream) {
      const resumed = { ...base, active_stream: stream, requested_stream: stream, stream_schema: null };
      return {
        kind: 'run',
        first: previous.intent === 'describe_stream' ? 'describe_stream' : 'ensure_active_stream',
        envelope: remember(resumed, 'user', `stream: ${stream}`),
      };
    }
  }

  if (pending?.type === 'need_clarification') {
    const answer = text ?? feedback;
    if (answer && previous.request) {
      const joined = `${previous.request}\n${CLARIFICATION_MARKER} ${answer}`;
      // The joined request is read again: from `link` when the router asked (the intent is
      // open), else at `ensure_active_stream` (the validator reads it there, the intent stays).
      const first: NodeName = previous.node === 'route_intent' ? 'link' : 'ensure_active_stream';
      return {
        kind: 'run',
        first,
        envelope: remember(
          {
            ...base,
            request: joined,
            reading: null,
            draft: emptyDraft(),
            validation: freshValidation(previous.validation.max_attempts),
          },
          'user',
          answer,
        ),
      };
    }
  }

  if (!text) {
    if (input.confirm !== undefined || feedback) {
      return { kind: 'reject', message: 'there is no draft waiting for confirmation or feedback in this session' };
    }
    return { kind: 'reject', message: 'text must be a non-empty request' };
  }

  // A new request: start over, keeping the active stream and what the session has learnt.
  return {
    kind: 'run',
    first: 'init_session',
    envelope: remember(
      {
        ...base,
        request: text,
        intent: null,
        reading: null,
        requested_stream: input.stream ?? null,
        draft: emptyDraft(),
        validation: freshValidation(previous.validation.max_attempts),
        explain: emptyExplain(),
      },
      'user',
      text,
    ),
  };
}

/** Exact match first; then a unique case-insensitive one (names are case-sensitive in SQL). */
export function matchStream(streams: readonly string[], wanted: string): string | undefined {
  const w = wanted.trim();
  if (streams.includes(w)) return w;
  const ci = streams.filter((s) => s.toLowerCase() === w.toLowerCase());
  return ci.length === 1 ? ci[0] : undefined;
}
