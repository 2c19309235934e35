import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { SessionEvent, TargetList } from '@nl2p/envelope';
import {
  ConsoleApi,
  GatewayError,
  plainMessage,
  type SessionSummary,
  type SessionView,
  type StreamList,
  type TraceRecord,
  type TurnBody,
} from './api';
import { KeyForm, StreamsPanel, Timeline } from './components';
import { lazyComponent } from './lazy';
import { SessionList } from './sessions';

const Teach = lazyComponent(() => import('./teach'));
import { TurnResult, type AnswerActions, type Decide } from './turn-result';

interface LiveNode {
  node: string;
  attempt: number;
  state: 'running' | 'ok' | 'failed';
  latency_ms?: number;
}

/** One turn as the conversation shows it: what was sent, what streamed in, what it left. */
interface TurnEntry {
  key: number;
  said: string;
  turnId: number | null;
  draft: string;
  nodes: LiveNode[];
  errors: string[];
  view: SessionView | null;
  trace: TraceRecord[];
}

/** How a turn body reads in the conversation. */
function describeBody(body: TurnBody): string {
  if (body.stream !== undefined && body.text === undefined) return `Use stream ${body.stream}`;
  if (body.confirm === true) return 'Confirm';
  if (body.confirm === false) return 'Discard';
  if (body.feedback !== undefined) return `Change: ${body.feedback}`;
  if (body.sql !== undefined) return `Check my SQL: ${body.sql}`;
  return body.text ?? '';
}

export function App() {
  const api = useRef(new ConsoleApi()).current;
  const [target, setTarget] = useState<string>('');
  const [targets, setTargets] = useState<TargetList['targets']>([]);
  // The named SQL sources (`SQL_SOURCES`); with two or more a session may ask across all of them.
  const [sqlSources, setSqlSources] = useState<NonNullable<TargetList['sources']>>([]);
  const [acrossSources, setAcrossSources] = useState(false);
  const [session, setSession] = useState<SessionView | null>(null);
  const [turns, setTurns] = useState<TurnEntry[]>([]);
  const [streams, setStreams] = useState<StreamList | null>(null);
  const [past, setPast] = useState<SessionSummary[]>([]);
  const [useStream, setUseStream] = useState<string | null>(null);
  const [input, setInput] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [keyNeeded, setKeyNeeded] = useState<string | null>(null);
  // The glossary and confirmed questions load (their chunk too) only while their panel is open.
  const [learntOpen, setLearntOpen] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const actionRef = useRef<HTMLElement>(null);

  /** A product error in the product's words; a refused key asks for one. */
  const fail = (err: unknown) => {
    if (err instanceof GatewayError && err.status === 401) {
      setKeyNeeded(api.apiKey ? `The gateway refused this key: ${err.detail}` : err.detail);
      return;
    }
    setError(plainMessage(err));
  };

  const refreshSessions = async () => setPast((await api.gw.listSessions({ limit: 20 })).sessions);

  const loadCatalog = async (forTarget: string) => {
    try {
      // The deployment's targets, once (also after a key was given: this runs again then).
      if (targets.length === 0) {
        const listed = await api.gw.targets();
        setTargets(listed.targets);
        setSqlSources(listed.sources ?? []);
      }
      const list = await api.gw.streams(forTarget || undefined);
      setStreams(list);
      if (!forTarget) setTarget(list.target);
      await refreshSessions();
    } catch (err) {
      setStreams(null);
      fail(err);
    }
  };

  useEffect(() => {
    void loadCatalog(target);
    // Only when the target changes (and once at the start).
  }, [target]);

  const patch = (key: number, change: (t: TurnEntry) => TurnEntry) =>
    setTurns((all) => all.map((t) => (t.key === key ? change(t) : t)));

  const onEvent = (key: number) => (e: SessionEvent) => {
    patch(key, (t) => {
      switch (e.type) {
        case 'node_start':
          return { ...t, nodes: [...t.nodes, { node: e.node, attempt: e.attempt, state: 'running' }] };
        case 'node_end':
          return {
            ...t,
            nodes: t.nodes.map((n) =>
              n.node === e.node && n.attempt === e.attempt && n.state === 'running'
                ? { ...n, state: e.ok ? 'ok' : 'failed', latency_ms: e.latency_ms }
                : n,
            ),
          };
        case 'draft_delta':
          return { ...t, draft: t.draft + e.delta };
        case 'error':
          return { ...t, errors: [...t.errors, e.message] };
        case 'turn_start':
        case 'interrupt':
        case 'turn_end':
          return t;
      }
    });
  };

  const send = async (body: TurnBody) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const key = Date.now();
    try {
      let current = session;
      if (!current) {
        // Across sources the gateway picks the session's SQL target itself (a stream is never a source).
        current = await api.gw.createSession(acrossSources ? { sources: 'all' } : target ? { target } : {});
        setSession(current);
      }
      setTurns((all) => [
        ...all,
        { key, said: describeBody(body), turnId: null, draft: '', nodes: [], errors: [], view: null, trace: [] },
      ]);
      const started = await api.gw.postTurn(current.session_id, body);
      patch(key, (t) => ({ ...t, turnId: started.turn_id }));
      setSession(started);
      if (started.status === 'running') {
        await api.gw.followTurn(current.session_id, started.turn_id, onEvent(key));
      }
      const view = await api.gw.getSession(current.session_id);
      const trace = await api.gw.trace(current.session_id, started.turn_id);
      patch(key, (t) => ({ ...t, view, trace }));
      setSession(view);
      await refreshSessions();
    } catch (err) {
      setTurns((all) => all.filter((t) => t.key !== key || t.turnId !== null));
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const waiting = session?.status === 'waiting' ? session.interrupt : null;
  const confirming = waiting?.type === 'need_confirm' && !busy;

  // While a turn runs, follow its end; once it stops, land on its answer (the SQL, or what it
  // said) and put the keyboard where the next step is: Confirm, a choice, or the box.
  useEffect(() => {
    const results = document.querySelectorAll<HTMLElement>('[data-testid="turn"] .result');
    const answer = busy ? null : results[results.length - 1];
    if (answer) answer.scrollIntoView({ block: 'start' });
    else endRef.current?.scrollIntoView({ block: 'end' });
    if (busy) return;
    const first =
      answer?.querySelector<HTMLElement>('.decision button') ??
      actionRef.current?.querySelector<HTMLElement>('button, input');
    // Without scrolling again: the answer's top is what should stay in view.
    (first ?? inputRef.current)?.focus({ preventScroll: true });
  }, [busy, turns.length]);

  const submitInput = (e?: Event) => {
    e?.preventDefault();
    const text = input.trim();
    if (!text || busy) return;
    setInput('');
    // As the CLI does: at a confirmation, free text is feedback on the draft.
    if (waiting?.type === 'need_confirm') void send({ feedback: text });
    else if (!waiting && useStream) void send({ text, stream: useStream });
    else void send({ text });
  };

  /** Stops the running turn; the event stream then ends and the turn shows as cancelled. */
  const stop = () => {
    if (busy && session) api.gw.cancelTurn(session.session_id).catch(fail);
  };

  useEffect(() => {
    // Escape stops the running turn, wherever the focus is.
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') stop();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  const newSession = () => {
    setSession(null);
    setTurns([]);
    setError(null);
    inputRef.current?.focus();
  };

  /** Deletes a session on the server; the one open is closed first. */
  const removeSession = async (id: string) => {
    try {
      await api.gw.deleteSession(id);
      if (session?.session_id === id) newSession();
      await refreshSessions();
    } catch (err) {
      fail(err);
    }
  };

  const resume = async (id: string) => {
    try {
      const view = await api.gw.getSession(id);
      setSession(view);
      setTarget(view.target);
      setTurns(
        view.turn_id > 0
          ? [
              {
                key: Date.now(),
                said: view.request ?? `turn ${view.turn_id}`,
                turnId: view.turn_id,
                draft: '',
                nodes: [],
                errors: [],
                view,
                trace: await api.gw.trace(id, view.turn_id),
              },
            ]
          : [],
      );
    } catch (err) {
      fail(err);
    }
  };

  if (keyNeeded) {
    return (
      <main class="layout narrow">
        <Header />
        <KeyForm
          message={keyNeeded}
          onSave={(key) => {
            api.setKey(key);
            setKeyNeeded(null);
            void loadCatalog(target);
          }}
        />
      </main>
    );
  }

  const last = turns[turns.length - 1];
  const streamingTarget = (kind: string) => targets.find((t) => t.kind === kind)?.streaming ?? false;
  // The tables' columns, for the SQL editor to complete names from.
  const schema = Object.fromEntries((streams?.streams ?? []).map((s) => [s.name, s.columns.map((c) => c.name)]));
  const current = session;
  const actions: AnswerActions | undefined =
    current && !busy && current.sql
      ? {
          editSql: (sql) => void send({ sql }),
          run: streamingTarget(current.target) ? undefined : (limit) => api.gw.run(current.session_id, limit),
        }
      : undefined;
  return (
    <div class="layout">
      <Header>
        <label class="target">
          Engine{' '}
          <select
            value={target}
            disabled={busy}
            onChange={(e) => {
              setTarget(e.currentTarget.value);
              newSession();
            }}
          >
            {targets.map((t) => (
              <option key={t.kind} value={t.kind}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        {sqlSources.length > 1 && (
          <label class="target" title={sqlSources.map((x) => `${x.name} (${x.label})`).join(', ')}>
            <input
              type="checkbox"
              checked={acrossSources}
              disabled={busy}
              onChange={(e) => {
                setAcrossSources(e.currentTarget.checked);
                newSession();
              }}
            />{' '}
            Across all SQL sources
          </label>
        )}
        <button type="button" onClick={newSession} disabled={busy}>
          New session
        </button>
        {api.apiKey && (
          <button type="button" class="link" onClick={() => setKeyNeeded('Enter another API key.')}>
            Change key
          </button>
        )}
      </Header>

      <aside class="side" aria-label={streams?.source_noun === 'table' ? 'Tables' : 'Streams'}>
        <h2>{streams?.source_noun === 'table' ? 'Tables' : 'Streams'}</h2>
        {streams && <StreamsPanel streams={streams.streams} noun={streams.source_noun} onUse={setUseStream} />}
        {useStream && (
          <p class="hint">
            New requests use <strong>{useStream}</strong>.{' '}
            <button type="button" class="link" onClick={() => setUseStream(null)}>
              Forget it
            </button>
          </p>
        )}
        <SessionList
          sessions={past}
          targets={targets}
          current={session?.session_id ?? null}
          onOpen={(id) => void resume(id)}
          onDelete={removeSession}
        />
        <details class="learnt" onToggle={(e) => setLearntOpen(e.currentTarget.open)}>
          <summary>What it has learnt</summary>
          {learntOpen && <Teach api={api} />}
        </details>
      </aside>

      <main class="conversation">
        {session && (
          <p class="hint session-id">
            Session <code>{session.session_id}</code> on {session.target}
          </p>
        )}
        {!turns.length && (
          <p class="hint">
            Ask in plain words, for example “average temperature per device every 10 seconds, only above 30”.
          </p>
        )}
        {turns.map((t) => (
          <Turn
            key={t.key}
            entry={t}
            running={busy && t === last}
            latest={t === last}
            streaming={streamingTarget(t.view?.target ?? target)}
            schema={schema}
            decide={t === last && confirming ? (confirm) => void send({ confirm }) : undefined}
            actions={t === last ? actions : undefined}
          />
        ))}

        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}

        {waiting && !busy && waiting.type !== 'need_confirm' && (
          <section class="panel action" ref={actionRef} aria-label="The workflow asks">
            <p class="question">{waiting.question}</p>
            {waiting.type === 'need_stream' && (
              <div class="choices" role="group" aria-label="Choose a stream">
                {(waiting.choices ?? []).map((c) => (
                  <button type="button" key={c} onClick={() => void send({ stream: c })}>
                    {c}
                  </button>
                ))}
              </div>
            )}
            {waiting.type === 'need_clarification' && <p class="hint">Answer below.</p>}
          </section>
        )}
        <div ref={endRef} />

        <form class="composer" onSubmit={submitInput}>
          <label for="ask" class="visually-hidden">
            {waiting?.type === 'need_confirm' ? 'What to change' : waiting ? 'Your answer' : 'Your request'}
          </label>
          <textarea
            id="ask"
            ref={inputRef}
            rows={2}
            value={input}
            disabled={busy}
            placeholder={
              waiting?.type === 'need_confirm'
                ? 'What to change in the SQL…'
                : waiting?.type === 'need_clarification'
                  ? 'Your answer…'
                  : 'Ask for a pipeline…'
            }
            onInput={(e) => setInput(e.currentTarget.value)}
            onKeyDown={(e) => {
              // Enter sends, Shift+Enter starts a new line.
              if (e.key === 'Enter' && !e.shiftKey) submitInput(e);
            }}
          />
          <button type="submit" class="primary" disabled={busy || !input.trim()}>
            {busy ? 'Working…' : 'Send'}
          </button>
          {busy && session && (
            <button type="button" onClick={stop} title="Stop the running turn (Esc)">
              Stop
            </button>
          )}
        </form>
      </main>
    </div>
  );
}

function Header({ children }: { children?: ComponentChildren }) {
  return (
    <header class="top">
      <h1>nl2pipeline</h1>
      <div class="tools">{children}</div>
    </header>
  );
}

function Turn({
  entry,
  running,
  latest,
  streaming,
  schema,
  decide,
  actions,
}: {
  entry: TurnEntry;
  running: boolean;
  latest: boolean;
  streaming: boolean;
  schema: Record<string, string[]>;
  decide?: Decide;
  actions?: AnswerActions;
}) {
  const v = entry.view;
  return (
    <article class="turn" aria-label={`Turn ${entry.turnId ?? ''}`} data-testid="turn">
      <p class="said">
        <span class="who">You</span> {entry.said}
      </p>
      {running && (
        <div class="live" aria-live="polite">
          <ol class="nodes">
            {entry.nodes.map((n, i) => (
              <li key={i} class={n.state}>
                {n.state === 'running' ? '…' : n.state === 'ok' ? '✓' : '✗'} {n.node}
                {n.latency_ms !== undefined ? ` ${n.latency_ms} ms` : ''}
              </li>
            ))}
          </ol>
          {entry.draft && (
            <pre class="code draft" data-testid="draft">
              {entry.draft}
            </pre>
          )}
        </div>
      )}
      {!running && entry.draft && entry.trace.some((r) => r.llm.length > 0) && (
        // Kept after the turn: when a repair followed, this is what the model first wrote. A plan
        // compiled without a model streamed its SQL too, but no model wrote it: nothing to keep.
        <details class="panel">
          <summary>Draft as the model wrote it</summary>
          <pre class="code draft" data-testid="draft">
            {entry.draft}
          </pre>
        </details>
      )}
      {entry.errors.map((m, i) => (
        <p class="error" key={i}>
          {m}
        </p>
      ))}
      {v && (
        <TurnResult view={v} latest={latest} streaming={streaming} schema={schema} decide={decide} actions={actions} />
      )}
      {v && <Timeline records={entry.trace} />}
    </article>
  );
}
