import type { Interrupt, NodeName, TurnStatus } from './envelope';

/** What services append to a session's event stream and the gateway serves (SSE, wait mode). */
export type SessionEvent =
  | { type: 'turn_start'; turn_id: number }
  | { type: 'node_start'; turn_id: number; node: NodeName; attempt: number }
  | {
      type: 'node_end';
      turn_id: number;
      node: NodeName;
      attempt: number;
      ok: boolean;
      latency_ms: number;
      error?: string;
    }
  | { type: 'draft_delta'; turn_id: number; node: NodeName; delta: string }
  | { type: 'interrupt'; turn_id: number; interrupt: Interrupt }
  | { type: 'error'; turn_id: number; node: NodeName | null; message: string }
  | { type: 'turn_end'; turn_id: number; status: TurnStatus };

export type SessionEventType = SessionEvent['type'];
