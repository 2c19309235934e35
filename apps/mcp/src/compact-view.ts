import type { SessionView } from '@nl2p/gateway-client';

/** Rows a compact result carries: enough to see what the query returns, not a data dump. */
export const COMPACT_ROWS = 5;

/**
 * What an agent needs from a session to act: its state, the question or the SQL, the answer
 * sentence, a few rows. The plan, the engine's explain and the attempts stay in the full view
 * (`nl2p://sessions/{id}`, or `view: "full"`), which is several kilobytes per turn.
 */
export function compactView(view: SessionView) {
  const waiting = view.status === 'waiting' ? view.interrupt : null;
  const preview = view.preview;
  return {
    session_id: view.session_id,
    status: view.status,
    turn_id: view.turn_id,
    target: view.target,
    request: view.request,
    ...(waiting ? { waiting_for: waiting.type, question: waiting.question, choices: waiting.choices } : {}),
    ...(view.sql ? { sql: view.sql } : {}),
    ...(view.assumptions.length ? { assumptions: view.assumptions } : {}),
    ...(view.answer ? { answer: view.answer.text } : {}),
    ...(view.similar_to ? { like_earlier_question: view.similar_to.request, earlier_sql: view.similar_to.sql } : {}),
    ...(preview
      ? {
          columns: preview.columns,
          rows: preview.rows.slice(0, COMPACT_ROWS),
          rows_shown: Math.min(COMPACT_ROWS, preview.rows.length),
          rows_in_preview: preview.rows.length,
          more_rows: preview.truncated || preview.rows.length > COMPACT_ROWS,
        }
      : {}),
    ...(view.preview_error ? { preview_error: view.preview_error } : {}),
    ...(view.pipeline_request ? { pipeline_request: view.pipeline_request } : {}),
    ...(view.error ? { error: view.error.message } : {}),
    full_view: `nl2p://sessions/${view.session_id}`,
  };
}
export type CompactView = ReturnType<typeof compactView>;
