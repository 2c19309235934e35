import {
  emptyDraft,
  emptyExplain,
  emptyMetrics,
  freshValidation,
  type Envelope,
  type InterruptType,
  type NodeName,
  type UserInput,
} from '@nl2p/envelope';
import { remember } from './history';
import { writeRequestAnswer } from './write-request';

/** What the gateway does with a turn's input, decided without I/O. */
export type PreTurnDecision =
  /** Run the workflow from `first` with this envelope. */
  | { kind: 'run'; envelope: Envelope; first: NodeName }
  /** The turn ends at once (a confirmation or a refusal): nothing to enqueue. */
  | { kind: 'done'; envelope: Envelope }
  /** The input does not fit the session's state; nothing changes. */
  | { kind: 'reject'; message: string };

const YES = /^\s*(y|yes|ok|okay|confirm|confirmed|looks good|lgtm)\s*[.!]?\s*$/i;
const NO = /^\s*(n|no|cancel|discard|reject)\s*[.!]?\s*$/i;
/** A reply to a question that drops the request instead of answering it. */
const CANCEL = /^\s*(never\s*mind|nevermind|cancel|forget (it|that|about it)|abort|drop it)\s*[.!]*\s*$/i;

/**
 * `pre_turn` (ARCHITECTURE §3): applies the person's input to the pending interrupt.
 * A confirm ends the turn; feedback revises with a fresh budget; a stream answer naming a real
 * stream resumes the original request; a reply to a clarification is read against what it asked
 * (by the `link` node) or drops the request ("never mind"); anything else is a new request.
 */
export function preTurn(previous: Envelope, input: UserInput, now = new Date()): PreTurnDecision {
  const pending = previous.interrupt;
  const text = input.text?.trim() || undefined;
  const feedback = input.feedback?.trim() || undefined;
  const editedSql = input.sql?.trim() || undefined;

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

  if (input.sql !== undefined) return runEditedSql(previous, base, editedSql);

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
          {
            ...base,
            feedback,
            validation: freshValidation(previous.validation.max_attempts),
            explain: emptyExplain(),
            // What the plan being changed returned: a change that empties it is flagged.
            previous_rows: previous.explain.preview ? previous.explain.preview.rows.length : null,
          },
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
    if (answer && CANCEL.test(answer)) {
      return {
        kind: 'done',
        envelope: remember(
          {
            ...base,
            status: 'idle',
            reply: null,
            draft: emptyDraft(),
            explain: emptyExplain(),
            answer: { kind: 'message', text: 'Dropped that request. Ask something else whenever you like.' },
          },
          'user',
          'never mind',
        ),
      };
    }
    if (answer && previous.request) {
      // The reply is read against what was asked, on the validator (it has the data's names and
      // values), by the `link` node; the request's text stays the person's own.
      const asked = pending.asked ?? { kind: 'open' as const, question: pending.question };
      return {
        kind: 'run',
        first: 'link',
        envelope: remember(
          {
            ...base,
            reply: { asked, text: answer },
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
    if (input.stream !== undefined) return { kind: 'reject', message: misplacedStreamChoice(pending?.type) };
    if (input.confirm !== undefined || feedback) {
      return { kind: 'reject', message: 'there is no draft waiting for confirmation or feedback in this session' };
    }
    return { kind: 'reject', message: 'text must be a non-empty request' };
  }

  // A request to change data ends here, answered with what can be read instead: no model or
  // engine ever sees it. A question still pending (a draft to confirm) stays pending, so the
  // session is where it was before the request.
  const readOnly = writeRequestAnswer(text);
  if (readOnly) {
    return {
      kind: 'done',
      envelope: remember(
        {
          ...base,
          status: pending ? 'waiting' : 'idle',
          interrupt: pending ?? null,
          answer: { kind: 'message', text: readOnly },
        },
        'user',
        text,
      ),
    };
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
        reply: null,
        answers: [],
        previous_rows: null,
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

/**
 * SQL the person edited in place of the session's draft (a waiting one, an accepted one, or one
 * whose check failed): it goes through the same local check and engine validation as a draft,
 * from `prevalidate`, with what the earlier SQL left (its plan, explain, request) cleared so none
 * of it is shown as this SQL's.
 */
function runEditedSql(previous: Envelope, base: Envelope, sql: string | undefined): PreTurnDecision {
  if (!sql) return { kind: 'reject', message: 'sql must be a non-empty SELECT' };
  if (previous.draft.sql === null || previous.active_stream === null) {
    return { kind: 'reject', message: 'there is no SQL in this session to edit yet: send a request as text first' };
  }
  if (
    previous.interrupt &&
    previous.interrupt.type !== 'need_confirm' &&
    previous.interrupt.type !== 'need_clarification'
  ) {
    return { kind: 'reject', message: 'this session waits for a stream choice: answer it before editing the SQL' };
  }
  return {
    kind: 'run',
    first: 'prevalidate',
    envelope: remember(
      {
        ...base,
        draft: { ...emptyDraft(), sql, mode: 'sql' },
        validation: freshValidation(previous.validation.max_attempts),
        explain: emptyExplain(),
        previous_rows: previous.explain.preview ? previous.explain.preview.rows.length : null,
      },
      'user',
      `edited the SQL: ${sql}`,
    ),
  };
}

/**
 * A stream choice sent alone when no which-stream question is pending: say what the session waits
 * for and what answers it, rather than that the (absent) text is empty.
 */
function misplacedStreamChoice(pending: InterruptType | undefined): string {
  const choice = 'a stream choice answers only a which-stream question';
  switch (pending) {
    case 'need_confirm':
      return `this session waits for a confirmation of its draft, and ${choice}: send {"confirm": true}, {"confirm": false}, {"feedback": "…"} or a new request as text`;
    case 'need_clarification':
      return `this session waits for an answer to its question, and ${choice}: send the answer as text`;
    case 'need_stream':
    case undefined:
      return `no which-stream question is pending, and ${choice}: send a request as text (with stream to name the stream it reads)`;
  }
}

/** Exact match first; then a unique case-insensitive one (names are case-sensitive in SQL). */
export function matchStream(streams: readonly string[], wanted: string): string | undefined {
  const w = wanted.trim();
  if (streams.includes(w)) return w;
  const ci = streams.filter((s) => s.toLowerCase() === w.toLowerCase());
  return ci.length === 1 ? ci[0] : undefined;
}
