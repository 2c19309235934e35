import type { Envelope } from './envelope';
import type { SessionSummary, SessionView } from './api-views';

// The REST gateway's projections of a session: the wire contract its clients (CLI, console, MCP)
// read, kept beside the envelope they project.

/** What a client sees of a session: enough to act on, nothing internal. */
export function sessionView(e: Envelope): SessionView {
  return {
    session_id: e.session_id,
    status: e.status,
    turn_id: e.turn_id,
    target: e.target,
    sources: e.sources,
    node: e.node,
    active_stream: e.active_stream,
    interrupt: e.interrupt,
    request: e.request,
    sql: e.draft.sql,
    /** `plan` when the SQL was compiled from a query plan (shown in `query_plan`), `sql` when written freely. */
    draft_mode: e.draft.mode,
    query_plan: e.draft.plan,
    assumptions: e.draft.assumptions,
    /** Read before confirming: contradicting conditions, or a change that emptied the result. */
    warnings: e.draft.warnings ?? [],
    /** Words explained in this session (replies, definitions), applied to every request read. */
    resolutions: e.resolutions,
    /** A confirmed earlier question of the tenant this request is close to ("like your earlier question"). */
    similar_to: e.similar_example,
    questions: e.draft.questions,
    explain: e.explain.pretty,
    pipeline_request: e.explain.pipeline_request,
    preview: e.explain.preview,
    preview_error: e.explain.preview_error,
    sources_run: e.sources_run,
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

/** One line of `GET /v1/sessions`: enough to pick a session up again. */
export function sessionSummary(e: Envelope): SessionSummary {
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
