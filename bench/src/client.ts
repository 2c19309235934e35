import { Gateway, type SessionView, type TurnBody } from '@nl2p/gateway-client';

/** The bench calls the gateway as every client does: through its generated client. */
export type BenchClient = Gateway;
export type TurnView = SessionView;

export function benchClient(baseUrl: string, apiKey?: string): BenchClient {
  return new Gateway({ baseUrl, apiKey, userAgent: 'nl2pipeline-bench' });
}

/** A new session's id. */
export async function newSession(client: BenchClient): Promise<string> {
  return (await client.createSession()).session_id;
}

/** One turn in wait mode; resolves with the view and the wall-clock time it took. */
export async function timedTurn(
  client: BenchClient,
  sessionId: string,
  input: TurnBody,
  timeoutMs = 120_000,
): Promise<{ view: TurnView; ms: number }> {
  const started = performance.now();
  const view = await client.waitTurn(sessionId, input, timeoutMs);
  return { view, ms: performance.now() - started };
}
