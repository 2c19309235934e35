import { DRAFT_SYSTEM_MARK, REVISE_SYSTEM_MARK, ROUTER_SYSTEM_MARK } from '@nl2p/prompts';
import type { ScriptedHandler, ScriptedRequest } from '@nl2p/testing';

/** The SQL every turn ends with; the fake Manager accepts and explains it. */
export const GOOD_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)";

/**
 * Passes the local check but the engine's planner rejects it ("GROUP BY without aggregate
 * functions"), so a turn that drafts it takes exactly one engine-driven repair.
 */
export const ENGINE_REJECTED_SQL = "SELECT device_id FROM sensor_stream GROUP BY device_id, tumblingwindow('ss', 10)";

export const HAPPY_REQUEST = 'average temperature per device every 10 seconds, only above 30';
/** The marker the scripted model keys on to take the repair path; stateless, so any concurrency works. */
export const REPAIR_MARK = '(repair path)';
export const REPAIR_REQUEST = `${HAPPY_REQUEST} ${REPAIR_MARK}`;

export type BenchPath = 'happy' | 'repair';

export function requestFor(path: BenchPath): string {
  return path === 'happy' ? HAPPY_REQUEST : REPAIR_REQUEST;
}

export interface ScriptedCounts {
  router: number;
  draft: number;
  revise: number;
}

/**
 * The bench's model: answers by role (told apart by the system prompt's mark) and by whether the
 * request carries {@link REPAIR_MARK}. No per-session state, so it serves any number of sessions
 * at once. `delayMs` is added before every answer (0: instant).
 */
export function benchModel(delayMs: () => number, counts?: ScriptedCounts): ScriptedHandler {
  return (req: ScriptedRequest) => {
    const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
    const user = req.messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content)
      .join('\n');
    const delay = delayMs();
    const reply = (content: string) => (delay > 0 ? { content, delayMs: delay } : { content });
    if (system.includes(ROUTER_SYSTEM_MARK)) {
      if (counts) counts.router += 1;
      return reply(JSON.stringify({ intent: 'nl2sql', stream: 'sensor_stream', question: null }));
    }
    if (system.includes(DRAFT_SYSTEM_MARK)) {
      if (counts) counts.draft += 1;
      return reply(user.includes(REPAIR_MARK) ? ENGINE_REJECTED_SQL : GOOD_SQL);
    }
    if (system.includes(REVISE_SYSTEM_MARK)) {
      if (counts) counts.revise += 1;
      return reply(JSON.stringify({ sql: GOOD_SQL, questions: [], assumptions: [] }));
    }
    return { status: 400, body: 'bench model: unexpected prompt', headers: { 'x-should-retry': 'false' } };
  };
}
