import type { TurnBody } from '@nl2p/gateway-client';
import type { EvalGateway, SessionView } from './gateway';

export interface AttemptRecord {
  attempt: number;
  sql: string;
  stage: 'local' | 'engine';
  error: string;
}

/** What one request's conversation produced, as seen over HTTP. */
export interface Conversation {
  session_id: string | null;
  /** Each turn posted: what was sent and where the turn stopped. */
  turns: { input: Record<string, unknown>; status: string; interrupt: string | null; ms: number }[];
  /** The product asked which table/stream to use (and was told). */
  asked_stream: boolean;
  final_status: string;
  final_interrupt: string | null;
  /** The node the turn stopped at: `confirm`, `give_up`, `route_intent`, `draft_sql`, … */
  final_node: string | null;
  question: string | null;
  /** The SQL the engine accepted (only when the conversation reached `need_confirm`). */
  sql: string | null;
  explain: string | null;
  /** How the final draft was written: `plan` (compiled from a query plan) or `sql`; null: no draft. */
  draft_mode: string | null;
  attempts: number;
  max_attempts: number;
  /** Every failed attempt of the request, local or engine, with its SQL and error. */
  failures: AttemptRecord[];
  /** The turn's error (a failed node) or a transport error. */
  error: string | null;
  llm_calls: number;
  tokens_in: number;
  tokens_out: number;
  /** Wall-clock time of the whole conversation, answering need_stream included. */
  latency_ms: number;
}

export interface ConverseOptions {
  target: string;
  request: string;
  /** Named when the product asks which table or stream to use. */
  stream: string;
  turnTimeoutMs: number;
}

/**
 * One request as a full conversation through the gateway: post it, answer `need_stream` with the
 * expected table, and stop at the first other stop: `need_confirm` (validated SQL),
 * `need_clarification` (a question, or the product giving up), a failed turn, or an error.
 */
export async function converse(gw: EvalGateway, opts: ConverseOptions): Promise<Conversation> {
  const started = performance.now();
  let last: { turn: number; node: string | null } | null = null;
  const out: Conversation = {
    session_id: null,
    turns: [],
    asked_stream: false,
    final_status: 'error',
    final_interrupt: null,
    final_node: null,
    question: null,
    sql: null,
    explain: null,
    draft_mode: null,
    attempts: 0,
    max_attempts: 0,
    failures: [],
    error: null,
    llm_calls: 0,
    tokens_in: 0,
    tokens_out: 0,
    latency_ms: 0,
  };
  try {
    const session = await gw.createSession({ target: opts.target });
    out.session_id = session.session_id;
    let input: TurnBody = { text: opts.request };
    let view: SessionView;
    for (;;) {
      const t0 = performance.now();
      view = await gw.waitTurn(session.session_id, input, opts.turnTimeoutMs);
      out.turns.push({
        input,
        status: view.status,
        interrupt: view.interrupt?.type ?? null,
        ms: performance.now() - t0,
      });
      if (view.interrupt?.type === 'need_stream' && !out.asked_stream) {
        out.asked_stream = true;
        input = { stream: opts.stream };
        continue;
      }
      break;
    }
    last = { turn: view.turn_id, node: view.node };
    out.final_status = view.status === 'running' ? 'timeout' : view.status;
    out.final_interrupt = view.interrupt?.type ?? null;
    out.final_node = view.node;
    out.question = view.interrupt?.type === 'need_confirm' ? null : (view.interrupt?.question ?? null);
    out.sql = view.interrupt?.type === 'need_confirm' ? view.sql : null;
    out.explain = view.interrupt?.type === 'need_confirm' ? view.explain : null;
    out.draft_mode = view.draft_mode ?? null;
    out.attempts = view.attempts.attempt;
    out.max_attempts = view.attempts.max_attempts;
    out.failures = view.attempts.failures.map((f) => ({
      attempt: f.attempt,
      sql: f.sql,
      stage: f.stage,
      error: f.error,
    }));
    out.error =
      view.error?.message ??
      (out.final_status === 'timeout' ? `the turn was still running after ${opts.turnTimeoutMs} ms` : null);
  } catch (err) {
    out.error = err instanceof Error ? err.message : String(err);
  }
  out.latency_ms = performance.now() - started;
  if (out.session_id) {
    try {
      // A wait-mode answer can come back a moment before the last node's trace record is written,
      // so wait (briefly) for the record of the node the conversation stopped at.
      let records = await gw.trace(out.session_id);
      const deadline = Date.now() + 3_000;
      const stop = last;
      while (stop && !records.some((r) => r.turn_id === stop.turn && r.node === stop.node) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        records = await gw.trace(out.session_id);
      }
      for (const record of records) {
        for (const call of record.llm) {
          out.llm_calls += 1;
          out.tokens_in += call.input_tokens;
          out.tokens_out += call.output_tokens;
        }
      }
    } catch (err) {
      out.error ??= `trace: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  return out;
}
