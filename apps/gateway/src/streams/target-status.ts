import type { TargetKind } from '@nl2p/envelope';
import type { AppConfig } from '@nl2p/config';
import { targetProfile, type EngineTarget } from '@nl2p/engine';

/** How long a listing waits for one engine: a client offering targets should not hang on a dead one. */
const PROBE_TIMEOUT_MS = 3_000;

export interface TargetStatus {
  reachable: boolean;
  /** Why not, and the setting to fix; null when the engine answered. */
  problem: string | null;
}

/** The system error code behind a failed call (ECONNREFUSED, ENOTFOUND…), else the first line of its message. */
function reasonOf(err: unknown): string {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]?.slice(0, 200) ?? 'no answer';
}

/**
 * Reads the target's catalog once, within a short deadline, and says in a sentence what to fix
 * when it fails: the person choosing a target should learn that before a turn fails on it.
 */
export async function probeTarget(kind: TargetKind, engine: EngineTarget, config: AppConfig): Promise<TargetStatus> {
  const profile = targetProfile(kind);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`)), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([engine.listStreams(), deadline]);
    return { reachable: true, problem: null };
  } catch (err) {
    return {
      reachable: false,
      problem: `${profile.label} cannot be reached at ${profile.whereabouts(config)} (${reasonOf(err)}); check ${profile.locatedBy}`,
    };
  } finally {
    clearTimeout(timer);
  }
}
