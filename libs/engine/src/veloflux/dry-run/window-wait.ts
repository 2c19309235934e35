import type { QueryPlan } from '@nl2p/query-plan';

/** How the candidate's window decides when output can be expected. */
export interface WindowWait {
  /** Shown to people: `a 10 s tumbling window`. */
  label: string;
  /**
   * How long after the last row to wait for a first flush: a processing-time window closes
   * within one length and is flushed up to one length after it closes (live engine).
   */
  waitMs: number;
  /** Count windows: rows it takes to fill one (the dry run sends at least this many). */
  rows: number;
}

const SECONDS: Record<string, number> = { second: 1, minute: 60, hour: 3_600, day: 86_400, week: 604_800 };

/** The window of the plan, or (free SQL) of the SQL's GROUP BY; null without one. */
export function windowWait(plan: QueryPlan | null, sql: string): WindowWait | null {
  const w = plan?.window;
  if (w && (w.kind === 'tumbling' || w.kind === 'sliding')) {
    return timeWindow(w.kind, w.size * (SECONDS[w.unit] ?? 2_592_000));
  }
  if (w?.kind === 'count') return { label: `a ${w.size}-row count window`, waitMs: 1_000, rows: w.size };
  if (w?.kind === 'state') return { label: 'a state window', waitMs: 1_000, rows: 0 };
  if (plan) return null;
  const time = /\b(tumbling|sliding)window\s*\(\s*'ss'\s*,\s*(\d+)/i.exec(sql);
  if (time) return timeWindow(time[1].toLowerCase() as 'tumbling', Number(time[2]));
  const count = /\bcountwindow\s*\(\s*(\d+)/i.exec(sql);
  if (count) return { label: `a ${count[1]}-row count window`, waitMs: 1_000, rows: Number(count[1]) };
  return /\bstatewindow\s*\(/i.test(sql) ? { label: 'a state window', waitMs: 1_000, rows: 0 } : null;
}

function timeWindow(kind: 'tumbling' | 'sliding', seconds: number): WindowWait {
  return { label: `a ${seconds} s ${kind} window`, waitMs: 2 * seconds * 1_000, rows: 0 };
}
