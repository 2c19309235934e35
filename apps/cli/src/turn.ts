import type { SessionEvent } from '@nl2p/envelope';
import { GatewayApi, sleep, type SessionView, type TurnBody } from './api';
import type { Style } from './style';

export interface RunTurnOptions {
  signal: AbortSignal;
  onEvent?: (e: SessionEvent) => void;
  /** Called once the gateway accepted the turn (with its id), before any waiting. */
  onStarted?: (view: SessionView) => void;
}

/**
 * One turn: posts it, follows its events live over SSE until the gateway says it ended, then
 * reads the session once more (the checkpoint is the truth). Gateways without an event stream
 * are polled instead.
 */
export async function runTurn(
  api: GatewayApi,
  sessionId: string,
  body: TurnBody,
  opts: RunTurnOptions,
): Promise<SessionView> {
  const started = await api.postTurn(sessionId, body);
  opts.onStarted?.(started);
  if (started.status !== 'running') return started;
  const turnId = started.turn_id;
  await api.followTurn(sessionId, turnId, (e) => opts.onEvent?.(e), { signal: opts.signal });
  return waitUntilStopped(api, sessionId, turnId, opts.signal);
}

/** Reads the session until turn `turnId` is no longer running (or was superseded). */
export async function waitUntilStopped(
  api: GatewayApi,
  sessionId: string,
  turnId: number,
  signal: AbortSignal,
  pollMs = 250,
): Promise<SessionView> {
  for (;;) {
    const view = await api.getSession(sessionId, signal);
    if (view.turn_id !== turnId || view.status !== 'running') return view;
    await sleep(pollMs, signal);
  }
}

/**
 * Shows a running turn on stderr: a line per finished node, the draft as the model writes it,
 * repairs and errors. Holds no state beyond the current line.
 */
export class ProgressReporter {
  private drafting = false;
  private column = 0;

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly s: Style,
  ) {}

  event(e: SessionEvent): void {
    switch (e.type) {
      case 'node_start':
        if (e.node === 'draft_sql') {
          this.endLine();
          this.write(this.s.dim('  ✎ drafting: '));
          this.drafting = true;
        } else if (e.node === 'revise_sql') {
          this.line(this.s.yellow(`  ↻ revising the SQL (attempt ${e.attempt + 1})…`));
        }
        return;
      case 'draft_delta':
        if (!this.drafting) {
          this.endLine();
          this.write(this.s.dim('  ✎ drafting: '));
          this.drafting = true;
        }
        this.write(this.s.cyan(e.delta.replace(/\n/g, '\n    ')));
        return;
      case 'node_end':
        if (e.node === 'draft_sql' || e.node === 'revise_sql') this.endLine();
        this.drafting = false;
        if (e.ok) this.line(this.s.dim(`  ✓ ${e.node} ${Math.round(e.latency_ms)} ms`));
        else this.line(this.s.yellow(`  ✗ ${e.node} failed: ${firstLine(e.error ?? 'error')} (retrying if it can)`));
        return;
      case 'error':
        this.line(this.s.red(`  ✗ ${e.node ?? 'turn'}: ${firstLine(e.message)}`));
        return;
      case 'turn_start':
      case 'interrupt':
      case 'turn_end':
        return;
    }
  }

  /** Ends a line left open by streamed text. */
  finish(): void {
    this.endLine();
    this.drafting = false;
  }

  private line(text: string): void {
    this.endLine();
    this.out.write(`${text}\n`);
  }

  private write(text: string): void {
    this.out.write(text);
    this.column += text.length;
  }

  private endLine(): void {
    if (this.column > 0) this.out.write('\n');
    this.column = 0;
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
