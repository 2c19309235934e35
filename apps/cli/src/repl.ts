import { readFileSync, writeFileSync } from 'node:fs';
import readline from 'node:readline';
import { CliError, GatewayHttpError, StoppedError, type GatewayApi, type SessionView, type TurnBody } from './api';
import { helpText, parseCommand, type Command } from './commands';
import { runExamplesAction } from './examples';
import { runGlossaryAction } from './glossary';
import {
  frame,
  layoutSql,
  pipelineJson,
  previewTable,
  renderAnswer,
  renderDraft,
  renderInterrupt,
  renderSourcesAnswer,
  renderSourcesRun,
  renderRepairs,
  renderStreamSchema,
  renderStreams,
  renderTrace,
} from './render';
import type { Style } from './style';
import { ProgressReporter, runTurn, waitUntilStopped } from './turn';

export interface ReplOptions {
  api: GatewayApi;
  /** Continue this session instead of creating one. */
  sessionId?: string;
  /** Engine of new sessions (the gateway's default when absent). */
  target?: string;
  /** `all`: new sessions read all the gateway's SQL sources. */
  sources?: 'all';
  /** Stream sent with every new request (as `/use <stream>`). */
  stream?: string;
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  outStyle: Style;
  errStyle: Style;
  /** Where the line history is kept between runs (none when absent). */
  historyFile?: string;
}

// The same words the gateway takes as a yes or a no at need_confirm.
const YES = /^(y|yes|ok|okay|confirm|confirmed|looks good|lgtm)[.!]?$/i;
const NO = /^(n|no|cancel|discard|reject)[.!]?$/i;
const HISTORY_SIZE = 1000;

/**
 * The interactive REPL: free text is a turn of the session; a pending question is answered at
 * the prompt; slash commands look around. Everything goes through the gateway.
 */
export class Repl {
  private view!: SessionView;
  private useStream: string | null;
  private knownStreams: string[] = [];
  private preferredTarget: string | undefined;
  private running: AbortController | null = null;
  private rl: readline.Interface | null = null;
  private readonly terminal: boolean;

  constructor(private readonly o: ReplOptions) {
    this.useStream = o.stream ?? null;
    this.preferredTarget = o.target;
    this.terminal = !!o.input.isTTY && !!o.stdout.isTTY;
  }

  async run(): Promise<number> {
    const { api, errStyle: es } = this.o;
    this.view = this.o.sessionId
      ? await api.getSession(this.o.sessionId)
      : await api.createSession(this.newSessionBody());
    this.err(
      `${es.bold('nl2pipeline')} ${es.dim(`· gateway ${api.baseUrl} · session ${this.view.session_id} (${this.view.target})`)}`,
    );
    this.err(es.dim('Type a request in plain words. /help lists the commands; Ctrl-C cancels a turn, Ctrl-D leaves.'));
    if (this.useStream) this.err(es.dim(`new requests use stream ${this.useStream} (/use - forgets it)`));
    if (this.o.sessionId) this.present(this.view, {});

    const rl = readline.createInterface({
      input: this.o.input,
      output: this.o.stdout,
      terminal: this.terminal,
      history: this.loadHistory(),
      historySize: HISTORY_SIZE,
      removeHistoryDuplicates: true,
      prompt: this.promptText(),
    });
    this.rl = rl;
    rl.on('history', (h: string[]) => this.saveHistory(h));
    rl.on('SIGINT', () => this.onInterrupt());
    // Without a terminal, Ctrl-C reaches the process as a signal.
    const onSignal = () => (this.running ? this.running.abort(new StoppedError('interrupt')) : rl.close());
    if (!this.terminal) process.on('SIGINT', onSignal);
    rl.on('close', () => {
      // Ctrl-D at a terminal leaves at once, even while a turn runs (it goes on server-side).
      if (this.terminal) this.running?.abort(new StoppedError('exit'));
    });

    rl.prompt();
    try {
      for await (const line of rl) {
        const verdict = await this.handle(line);
        if (verdict === 'exit') break;
        rl.setPrompt(this.promptText());
        rl.prompt();
      }
    } finally {
      process.off('SIGINT', onSignal);
      rl.close();
    }
    if (this.terminal) this.o.stdout.write('\n');
    return 0;
  }

  private onInterrupt(): void {
    const rl = this.rl;
    if (this.running) {
      this.running.abort(new StoppedError('interrupt'));
      return;
    }
    if (!rl) return;
    // At the prompt, Ctrl-C drops the line being typed, as shells do.
    rl.write(null, { ctrl: true, name: 'e' });
    this.o.stdout.write(`^C\n${this.o.errStyle.dim('(Ctrl-C drops the line; /exit or Ctrl-D leaves)')}\n`);
    rl.write(null, { ctrl: true, name: 'u' });
    rl.prompt();
  }

  private promptText(): string {
    const s = this.o.outStyle;
    const interrupt = this.view?.status === 'waiting' ? this.view.interrupt : null;
    const hint =
      interrupt?.type === 'need_stream'
        ? ` [1-${interrupt.choices?.length ?? 0}]`
        : interrupt?.type === 'need_confirm'
          ? ' [y/n/feedback]'
          : interrupt?.type === 'need_clarification'
            ? ' [answer]'
            : '';
    return `${s.bold(s.cyan('nl2p'))}${s.magenta(hint)}${s.cyan('>')} `;
  }

  /** One line from the prompt; never throws (a failure is one line on stderr). */
  private async handle(line: string): Promise<'exit' | void> {
    const input = line.trim();
    if (!input) return;
    try {
      if (input.startsWith('/')) {
        const parsed = parseCommand(input);
        if (!parsed.ok) return this.hint(parsed.hint);
        return await this.command(parsed.command);
      }
      await this.text(input);
    } catch (err) {
      this.failure(err);
    }
  }

  private failure(err: unknown): void {
    if (err instanceof GatewayHttpError && err.status === 409) {
      this.hint('a turn is still running in this session: wait a moment and try again, or /new');
    } else if (err instanceof GatewayHttpError && err.status === 400) {
      this.hint(err.detail);
    } else if (err instanceof GatewayHttpError && err.status === 404 && /session/.test(err.detail)) {
      this.hint(`${err.detail} (it may have expired): /new starts a new one`);
    } else if (err instanceof CliError) {
      this.err(this.o.errStyle.red(`error: ${err.message}`));
    } else {
      this.err(this.o.errStyle.red(`error: ${err instanceof Error ? err.message : String(err)}`));
    }
  }

  /** Free text: the answer to the pending question, or a new request. */
  private async text(text: string): Promise<void> {
    const interrupt = this.view.status === 'waiting' ? this.view.interrupt : null;
    let body: TurnBody;
    switch (interrupt?.type) {
      case 'need_stream': {
        const choices = interrupt.choices ?? [];
        if (/^\d+$/.test(text)) {
          const n = Number(text);
          if (n < 1 || n > choices.length) return this.hint(`choose a number from 1 to ${choices.length}`);
          body = { stream: choices[n - 1] };
        } else {
          // The gateway matches a stream name; any other text is a new request.
          body = { text };
        }
        break;
      }
      case 'need_clarification':
        body = { text };
        break;
      case 'need_confirm':
        body = YES.test(text) ? { confirm: true } : NO.test(text) ? { confirm: false } : { feedback: text };
        break;
      case undefined:
        body = this.useStream ? { text, stream: this.useStream } : { text };
        break;
    }
    await this.turn(this.view.session_id, body);
  }

  /** Runs one turn with live progress; Ctrl-C cancels it (or stops waiting for it). */
  private async turn(sessionId: string, body: TurnBody): Promise<SessionView | null> {
    const controller = new AbortController();
    this.running = controller;
    const reporter = new ProgressReporter(this.o.stderr, this.o.errStyle);
    let turnId: number | undefined;
    try {
      const view = await runTurn(this.o.api, sessionId, body, {
        signal: controller.signal,
        onEvent: (e) => reporter.event(e),
        onStarted: (v) => {
          turnId = v.turn_id;
          this.view = v;
        },
      });
      reporter.finish();
      this.view = view;
      this.present(view, body);
      return view;
    } catch (err) {
      reporter.finish();
      if (err instanceof StoppedError && turnId !== undefined) {
        if (err.reason === 'interrupt') await this.afterInterrupt(sessionId, turnId);
        return null;
      }
      throw err;
    } finally {
      this.running = null;
    }
  }

  private async afterInterrupt(sessionId: string, turnId: number): Promise<void> {
    const { api, errStyle: es } = this.o;
    const outcome = await api.cancelRunning(sessionId);
    if (outcome === 'unsupported') {
      this.err(
        es.yellow(
          `stopped waiting: this gateway cannot cancel a turn, so turn ${turnId} goes on server-side; /show or /trace once it is done`,
        ),
      );
      return;
    }
    let view: SessionView;
    try {
      view = await waitUntilStopped(api, sessionId, turnId, AbortSignal.timeout(5_000));
    } catch {
      view = await api.getSession(sessionId);
    }
    this.view = view;
    if (view.status === 'cancelled' || outcome === 'cancelled') {
      this.err(es.yellow(`turn ${turnId} cancelled`));
      if (view.status !== 'cancelled' && view.status !== 'running') this.present(view, {});
    } else {
      this.present(view, {});
    }
  }

  /** Prints what a turn left: the result on stdout, status lines on stderr. */
  private present(view: SessionView, body: TurnBody): void {
    const { outStyle: s, errStyle: es } = this.o;
    const columns = this.o.stdout.columns || 100;
    switch (view.status) {
      case 'waiting': {
        const interrupt = view.interrupt;
        if (interrupt?.type === 'need_stream') this.knownStreams = interrupt.choices ?? this.knownStreams;
        if (interrupt?.type === 'need_confirm') this.out(renderDraft(view, s, columns));
        // Over sources a question may come after the parts ran (one hit its row limit): show them.
        else if (view.sources_run) this.out(renderSourcesRun(view.sources_run, s, columns));
        this.out(renderInterrupt(view, s));
        return;
      }
      case 'idle':
        if (view.sources_run) {
          this.out(renderSourcesAnswer(view, s, columns));
        } else if (view.answer) {
          this.rememberStreams(view);
          this.out(renderAnswer(view.answer, s));
        } else if (body.confirm === true) {
          this.err(es.green('✓ accepted'));
          if (view.pipeline_request) {
            this.err(es.dim("the pipeline request (POST it to the engine's /pipelines, with a real id):"));
            this.out(pipelineJson(view.pipeline_request));
          } else if (view.sql) {
            this.out(view.sql);
            if (view.preview) this.out(previewTable(view.preview, s));
          }
        } else if (view.sql) {
          this.out(renderDraft(view, s, columns));
        } else {
          this.err(es.dim('done'));
        }
        return;
      case 'failed': {
        const repairs = renderRepairs(view, es);
        if (repairs) this.err(repairs);
        const where = view.error?.node ? ` at ${view.error.node}` : '';
        this.err(es.red(`✗ turn ${view.turn_id} failed${where}: ${view.error?.message ?? 'unknown error'}`));
        return;
      }
      case 'cancelled':
        this.err(es.yellow(`turn ${view.turn_id} was cancelled`));
        return;
      case 'running':
        this.err(es.dim(`turn ${view.turn_id} is running on the server`));
        return;
    }
  }

  private rememberStreams(view: SessionView): void {
    const data = view.answer?.data;
    if (view.answer?.kind === 'streams' && Array.isArray(data)) {
      this.knownStreams = (data as { name: string }[]).map((x) => x.name);
    }
  }

  private matchKnown(name: string): string | undefined | null {
    if (!this.knownStreams.length) return null; // nothing known: let the gateway decide
    return (
      this.knownStreams.find((x) => x === name) ?? this.knownStreams.find((x) => x.toLowerCase() === name.toLowerCase())
    );
  }

  private async command(c: Command): Promise<'exit' | void> {
    const { api, outStyle: s, errStyle: es } = this.o;
    switch (c.name) {
      case 'help':
        this.out(helpText());
        return;
      case 'exit':
        return 'exit';
      case 'streams': {
        // The catalog endpoint reads the engine directly: looking around never touches the conversation.
        const list = await api.streams(this.view.target);
        this.knownStreams = list.streams.map((x) => x.name);
        this.out(renderStreams(list, s));
        return;
      }
      case 'describe': {
        const known = this.matchKnown(c.stream);
        if (known === undefined) {
          return this.hint(`unknown stream '${c.stream}'; known streams: ${this.knownStreams.join(', ')}`);
        }
        const info = await api.describeStream(known ?? c.stream, this.view.target);
        if (!info) return this.hint(`no stream named '${known ?? c.stream}' on ${this.view.target}`);
        this.out(renderStreamSchema(info, s));
        return;
      }
      case 'use': {
        if (c.stream === undefined) {
          this.out(this.useStream ? `stream: ${this.useStream}` : 'no stream chosen: the workflow picks one or asks');
          return;
        }
        if (c.stream === null) {
          this.useStream = null;
          this.err(es.dim('new requests no longer name a stream'));
          return;
        }
        const known = this.matchKnown(c.stream);
        if (known === undefined) {
          return this.hint(`unknown stream '${c.stream}'; known streams: ${this.knownStreams.join(', ')}`);
        }
        this.useStream = known ?? c.stream;
        if (this.view.status === 'waiting' && this.view.interrupt?.type === 'need_stream') {
          await this.turn(this.view.session_id, { stream: this.useStream });
          return;
        }
        this.err(es.dim(`new requests use stream ${this.useStream}`));
        return;
      }
      case 'show': {
        this.view = await api.getSession(this.view.session_id);
        const v = this.view;
        const columns = this.o.stdout.columns || 100;
        switch (c.what) {
          case 'sql':
            return v.sql
              ? this.out(frame('SQL', layoutSql(v.sql), s, columns))
              : this.hint('no SQL in this session yet');
          case 'explain':
            return v.explain
              ? this.out(frame('explain', v.explain, s, columns))
              : this.hint('no plan in this session yet');
          case 'pipeline':
            if (v.pipeline_request) return this.out(pipelineJson(v.pipeline_request));
            // A target that shows preview rows is one that runs SQL, not pipelines.
            return this.hint(
              v.preview || v.preview_error
                ? `${v.target} sessions have no pipeline request: /show sql and /show preview`
                : 'no pipeline request yet: ask for a pipeline first',
            );
          case 'preview':
            if (v.preview) return this.out(previewTable(v.preview, s));
            if (v.preview_error) return this.hint(`no preview rows: ${v.preview_error}`);
            if (!('preview' in v)) return this.hint('this gateway does not send preview rows');
            return this.hint(
              v.pipeline_request
                ? `${v.target} drafts have no preview rows: a pipeline shows rows once it runs`
                : 'no preview in this session yet',
            );
        }
        return;
      }
      case 'trace': {
        const records = await api.trace(this.view.session_id);
        if (!records.length) return this.hint('no node runs recorded in this session yet');
        const turn = c.turn === 'last' ? Math.max(...records.map((r) => r.turn_id)) : c.turn;
        const picked = turn === 'all' ? records : records.filter((r) => r.turn_id === turn);
        if (!picked.length) return this.hint(`no node runs recorded for turn ${turn}`);
        this.out(s.bold(turn === 'all' ? 'trace of every turn' : `trace of turn ${turn}`));
        this.out(renderTrace(picked, s));
        return;
      }
      case 'target':
        if (!c.target || c.target === this.view.target) {
          this.out(`target: ${this.view.target}`);
          return;
        }
        this.preferredTarget = c.target;
        await this.newSession();
        return;
      case 'new':
        await this.newSession();
        return;
      case 'examples': {
        const done = await runExamplesAction(api, c.action, s);
        if (done.out) this.out(done.out);
        if (done.note) this.err(es.green(`✓ ${done.note}`));
        return;
      }
      case 'glossary': {
        const done = await runGlossaryAction(api, c.action, s);
        if (done.out) this.out(done.out);
        if (done.note) this.err(es.green(`✓ ${done.note}`));
        return;
      }
      case 'session':
        if (!c.id) {
          this.out(this.view.session_id);
          return;
        }
        this.view = await api.getSession(c.id);
        this.err(es.dim(`continuing session ${this.view.session_id} (${this.view.target}, turn ${this.view.turn_id})`));
        this.present(this.view, {});
        return;
    }
  }

  /** What a new session is made with: the preferred target, and all sources when asked for. */
  private newSessionBody(): { target?: string; sources?: 'all' } {
    return { ...(this.preferredTarget ? { target: this.preferredTarget } : {}), ...(this.o.sources ? { sources: this.o.sources } : {}) }; // prettier-ignore
  }

  private async newSession(): Promise<void> {
    this.view = await this.o.api.createSession(this.newSessionBody());
    this.err(this.o.errStyle.dim(`new session ${this.view.session_id} (${this.view.target})`));
  }

  private out(text: string): void {
    this.o.stdout.write(`${text}\n`);
  }

  private err(text: string): void {
    this.o.stderr.write(`${text}\n`);
  }

  private hint(text: string): void {
    this.err(this.o.errStyle.yellow(text));
  }

  private loadHistory(): string[] {
    if (!this.o.historyFile) return [];
    try {
      return readFileSync(this.o.historyFile, 'utf8').split('\n').filter(Boolean).slice(-HISTORY_SIZE).reverse();
    } catch {
      return [];
    }
  }

  private saveHistory(history: string[]): void {
    if (!this.o.historyFile) return;
    try {
      writeFileSync(this.o.historyFile, `${[...history].reverse().join('\n')}\n`, { mode: 0o600 });
    } catch {
      // history is a convenience: a read-only home must not break the REPL
    }
  }
}
