import type { Envelope, TargetKind } from './envelope';

// The REST gateway's projections of a session: the wire contract its clients (CLI, console, MCP)
// read, kept beside the envelope they project.

/** What a client sees of a session: enough to act on, nothing internal. */
export function sessionView(e: Envelope) {
  return {
    session_id: e.session_id,
    status: e.status,
    turn_id: e.turn_id,
    target: e.target,
    node: e.node,
    active_stream: e.active_stream,
    interrupt: e.interrupt,
    request: e.request,
    sql: e.draft.sql,
    /** `plan` when the SQL was compiled from a query plan (shown in `query_plan`), `sql` when written freely. */
    draft_mode: e.draft.mode,
    query_plan: e.draft.plan,
    assumptions: e.draft.assumptions,
    questions: e.draft.questions,
    explain: e.explain.pretty,
    pipeline_request: e.explain.pipeline_request,
    preview: e.explain.preview,
    preview_error: e.explain.preview_error,
    answer: e.answer,
    error: e.error,
    attempts: {
      attempt: e.validation.attempt,
      max_attempts: e.validation.max_attempts,
      failures: e.validation.failures,
    },
    metrics: e.metrics,
    updated_at: e.updated_at,
  };
}
export type SessionView = ReturnType<typeof sessionView>;

/** One line of `GET /v1/sessions`: enough to pick a session up again. */
export function sessionSummary(e: Envelope) {
  return {
    session_id: e.session_id,
    status: e.status,
    turn_id: e.turn_id,
    target: e.target,
    active_stream: e.active_stream,
    request: e.request,
    interrupt_type: e.status === 'waiting' ? (e.interrupt?.type ?? null) : null,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}
export type SessionSummary = ReturnType<typeof sessionSummary>;

/** `GET /v1/targets`: the targets a session may choose on this deployment, the default first. */
export interface TargetList {
  default: TargetKind;
  targets: { kind: TargetKind; label: string; source_noun: 'stream' | 'table'; streaming: boolean }[];
}
