/** One LLM call of a node run (the trace record's and the GenAI span's figures). */
export interface LlmCallRecord {
  /** `gen_ai.provider.name` of the span: `openai` (any OpenAI-compatible server) when absent. */
  provider?: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  latency_ms: number;
  finish_reason: string | null;
  /** How many retries the call needed (429/5xx/timeouts). */
  retries: number;
}

/** One engine call of a node run. */
export interface EngineCallRecord {
  method: string;
  route: string;
  status: number | null;
  latency_ms: number;
  retries: number;
}

/** One node run, as the trace log keeps it and `GET /v1/sessions/:id/trace` shows it (seed §6). */
export interface NodeTraceRecord {
  turn_id: number;
  node: string;
  service: string;
  attempt: number;
  /** Which delivery of the job this was (BullMQ retries and crash re-deliveries count). */
  delivery: number;
  start: string;
  end: string;
  latency_ms: number;
  ok: boolean;
  error: string | null;
  llm: LlmCallRecord[];
  engine: EngineCallRecord[];
}
