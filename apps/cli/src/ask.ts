import { CliError, StoppedError, type GatewayApi, type SessionView, type TurnBody } from './api';
import { layoutSql, pipelineJson, previewTable, renderAnswer, renderSourcesAnswer, frame } from './render';
import type { Style } from './style';
import { ProgressReporter, runTurn } from './turn';

/** Exit codes of `nl2pipeline ask`. */
export const EXIT = {
  ok: 0,
  /** The gateway is down, answered an error, or the turn failed. */
  error: 1,
  /** Bad flags or arguments. */
  usage: 2,
  /** The workflow needs a person: a stream, an answer, or a confirmation without --yes. */
  needsPerson: 3,
  /** Ctrl-C. */
  interrupted: 130,
} as const;

export interface AskOptions {
  api: GatewayApi;
  request: string;
  stream?: string;
  yes: boolean;
  json: boolean;
  sessionId?: string;
  target?: string;
  /** `all`: a new session over all the gateway's SQL sources. */
  sources?: 'all';
  timeoutMs: number;
  /** Show node progress and the streamed draft on stderr. */
  progress: boolean;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  outStyle: Style;
  errStyle: Style;
}

/**
 * One request, no questions asked: prints the pipeline request JSON (SQL targets: the SQL and
 * the preview) and exits 0; exits non-zero with a one-line reason when a person is needed.
 */
export async function runAsk(o: AskOptions): Promise<number> {
  const { api } = o;
  const sessionId = o.sessionId
    ? (await api.getSession(o.sessionId)).session_id
    : (
        await api.createSession({
          ...(o.target ? { target: o.target } : {}),
          ...(o.sources ? { sources: o.sources } : {}),
          ...(o.stream ? { stream: o.stream } : {}),
        })
      ).session_id;

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new StoppedError('timeout')), o.timeoutMs);
  const onSignal = () => controller.abort(new StoppedError('interrupt'));
  process.on('SIGINT', onSignal);
  const reporter = o.progress ? new ProgressReporter(o.stderr, o.errStyle) : null;
  let turnId: number | undefined;
  const turn = async (body: TurnBody) => {
    const view = await runTurn(api, sessionId, body, {
      signal: controller.signal,
      onEvent: (e) => reporter?.event(e),
      onStarted: (v) => (turnId = v.turn_id),
    });
    reporter?.finish();
    return view;
  };

  try {
    let view = await turn(o.stream ? { text: o.request, stream: o.stream } : { text: o.request });
    if (view.status === 'waiting' && view.interrupt?.type === 'need_confirm' && o.yes) {
      const draft = view;
      view = await turn({ confirm: true });
      // The accepted view keeps the result; an older gateway might not echo it.
      if (!view.sql && !view.pipeline_request) view = { ...draft, status: view.status, interrupt: view.interrupt };
    }
    return finish(o, sessionId, view);
  } catch (err) {
    reporter?.finish();
    if (err instanceof StoppedError) {
      const where = `turn ${turnId ?? '?'} of session ${sessionId}`;
      if (err.reason === 'timeout') {
        throw new CliError(`timed out after ${o.timeoutMs / 1000} s waiting for ${where}; it goes on server-side`);
      }
      const outcome = await api.cancelRunning(sessionId).catch(() => 'unsupported' as const);
      o.stderr.write(
        `nl2pipeline: interrupted; ${outcome === 'cancelled' ? `${where} cancelled` : `${where} goes on server-side`}\n`,
      );
      return EXIT.interrupted;
    }
    throw err;
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', onSignal);
  }
}

function finish(o: AskOptions, sessionId: string, view: SessionView): number {
  const { outStyle: s } = o;
  const say = (reason: string) => o.stderr.write(`nl2pipeline: ${reason}\n`);
  if (o.json) o.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
  const print = (text: string) => {
    if (!o.json) o.stdout.write(`${text}\n`);
  };

  switch (view.status) {
    case 'waiting': {
      const interrupt = view.interrupt;
      switch (interrupt?.type) {
        case 'need_stream': {
          const choices = interrupt.choices ?? [];
          if (o.stream && !choices.includes(o.stream)) {
            say(`unknown stream '${o.stream}'; the engine has: ${choices.join(', ') || '(no streams)'}`);
          } else {
            say(
              `needs a stream: ${interrupt.question} ${choices.length ? `choose one with --stream (${choices.join(', ')})` : ''}`.trim(),
            );
          }
          return EXIT.needsPerson;
        }
        case 'need_clarification':
          say(`needs clarification (answer with: ask "<answer>" --session ${sessionId}): ${interrupt.question}`);
          return EXIT.needsPerson;
        case 'need_confirm':
          say(
            `the SQL is validated and waits for confirmation: re-run with --yes, or answer with: ask yes --session ${sessionId}`,
          );
          return EXIT.needsPerson;
        case undefined:
          say(`session ${sessionId} waits for something this CLI does not know`);
          return EXIT.needsPerson;
      }
      return EXIT.needsPerson;
    }
    case 'idle':
      if (view.pipeline_request) {
        print(pipelineJson(view.pipeline_request));
      } else if (view.sources_run) {
        print(renderSourcesAnswer(view, s, o.stdout.columns || 100));
      } else if (view.sql) {
        // Framed on a terminal; plain text (ready for another tool) in a pipe.
        print(o.stdout.isTTY ? frame('SQL', layoutSql(view.sql), s, o.stdout.columns || 100) : view.sql);
        if (view.preview) print(`${o.stdout.isTTY ? '' : '\n'}${previewTable(view.preview, s)}`);
        else if (view.preview_error) say(`no preview rows: ${view.preview_error}`);
      } else if (view.answer) {
        print(renderAnswer(view.answer, s));
      }
      return EXIT.ok;
    case 'failed':
      say(
        `the turn failed${view.error?.node ? ` at ${view.error.node}` : ''}: ${view.error?.message ?? 'unknown error'}`,
      );
      return EXIT.error;
    case 'cancelled':
      say(`turn ${view.turn_id} of session ${sessionId} was cancelled`);
      return EXIT.error;
    case 'running':
      say(`turn ${view.turn_id} of session ${sessionId} is still running`);
      return EXIT.error;
  }
}
