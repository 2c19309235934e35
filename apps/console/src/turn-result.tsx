import { useState } from 'preact/hooks';
import type { QueryPlan } from '@nl2p/query-plan';
import type { RunResult, SessionView } from './api';
import { CopyButton, PipelineRequest, SqlBlock } from './components';
import { lazyComponent } from './lazy';
import { planOutline } from './plan-outline';
import { ResultRows } from './result-rows';
import { answerAuthorship, SourcesRunPanel } from './sources-run';
import type { SqlSchema } from './sql-editor';

const SqlEditor = lazyComponent(() => import('./sql-editor'));

/** Confirm or discard the draft: offered beside the SQL while the session waits for it. */
export type Decide = (confirm: boolean) => void;

/** What the latest turn's answer can do next: edit its SQL, run it (SQL targets). */
export interface AnswerActions {
  editSql: (sql: string) => void;
  run?: (limit: number) => Promise<RunResult>;
}

/**
 * What a turn left, the answer first: the SQL with Copy SQL and Edit (and Confirm/Discard beside
 * it while it waits), the rows with a run beyond the preview, the pipeline request; the plan in
 * sentences, and the engine's explain collapsed below, for whoever wants them.
 */
export function TurnResult({
  view: v,
  latest,
  streaming,
  schema,
  decide,
  actions,
}: {
  view: SessionView;
  latest: boolean;
  streaming: boolean;
  schema: SqlSchema;
  decide?: Decide;
  actions?: AnswerActions;
}) {
  const failures = v.status === 'failed' && v.error;
  return (
    <div class="result">
      {/* The latest turn's question is asked once, in the panel where it is answered. */}
      {!latest && v.status === 'waiting' && v.interrupt && v.interrupt.type !== 'need_confirm' && (
        <p class="said">
          <span class="who">nl2pipeline</span> {v.interrupt.question}
        </p>
      )}
      {failures && (
        <p class="error" role="alert">
          Failed{v.error?.node ? ` at ${v.error.node}` : ''}: {v.error?.message}
        </p>
      )}
      {v.status === 'cancelled' && <p class="hint">Cancelled.</p>}
      {v.answer && <Answer answer={v.answer} />}
      {v.sources_run && <SourcesAnswer view={v} />}
      {v.sql && !v.answer && (
        <>
          <SqlPanel view={v} sql={v.sql} streaming={streaming} schema={schema} decide={decide} actions={actions} />
          {v.preview && (
            <ResultRows
              preview={v.preview}
              name={`nl2pipeline-${v.session_id}-${v.turn_id}`}
              run={latest ? actions?.run : undefined}
            />
          )}
          {v.preview_error && <p class="hint">No preview rows: {v.preview_error}</p>}
          {v.pipeline_request && latest && <PipelineRequest request={v.pipeline_request} />}
          {v.query_plan != null && <PlanPanel plan={v.query_plan} />}
          {v.explain && (
            <details class="panel">
              <summary>Engine's explain</summary>
              <pre class="code plan" data-testid="explain">
                {v.explain}
              </pre>
            </details>
          )}
        </>
      )}
    </div>
  );
}

/** What confirming does: a streaming engine's SQL becomes a pipeline request; a database's answer is only read. */
function confirmLabel(streaming: boolean): string {
  return streaming ? 'Confirm: get the pipeline request' : 'Confirm this answer';
}

function SqlPanel({
  view: v,
  sql,
  streaming,
  schema,
  decide,
  actions,
}: {
  view: SessionView;
  sql: string;
  streaming: boolean;
  schema: SqlSchema;
  decide?: Decide;
  actions?: AnswerActions;
}) {
  const [editing, setEditing] = useState(false);
  return (
    <section class="panel" aria-label="SQL" data-testid="answer">
      <header class="panel-head">
        <h3>SQL</h3>
        {v.status === 'idle' && v.interrupt === null && <span class="badge">accepted</span>}
        <CopyButton text={sql} label="Copy SQL" />
        {actions && !editing && (
          <button type="button" onClick={() => setEditing(true)}>
            Edit SQL
          </button>
        )}
      </header>
      {editing && actions ? (
        <SqlEditor
          initial={sql}
          streaming={streaming}
          schema={schema}
          onCheck={(edited) => {
            setEditing(false);
            actions.editSql(edited);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <SqlBlock sql={sql} />
      )}
      {!!v.assumptions?.length && (
        <ul class="assumptions">
          {v.assumptions.map((a, i) => (
            <li key={i}>{a}</li>
          ))}
        </ul>
      )}
      {decide && !editing && (
        <div class="choices decision" role="group" aria-label="Confirm the SQL">
          {v.interrupt?.question && <p class="question">{v.interrupt.question}</p>}
          <button type="button" class="primary" onClick={() => decide(true)}>
            {confirmLabel(streaming)}
          </button>
          <button type="button" onClick={() => decide(false)}>
            Discard
          </button>
          <span class="hint">or type what to change below</span>
        </div>
      )}
    </section>
  );
}

/** The typed plan the SQL was compiled from, as sentences; its JSON one click away. */
function PlanPanel({ plan }: { plan: QueryPlan }) {
  return (
    <details class="panel" open>
      <summary>How the request was read</summary>
      <table class="plan-outline" data-testid="plan-outline">
        <tbody>
          {planOutline(plan).map((line, i) => (
            <tr key={i}>
              <th scope="row">{line.label}</th>
              <td>{line.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <details>
        <summary>The plan as JSON</summary>
        <pre class="code">{JSON.stringify(plan, null, 2)}</pre>
      </details>
    </details>
  );
}

/**
 * Over all sources: what ran where and the combine, then the combined rows and the assumptions
 * (the key rules among them). Shown also when a question stopped the turn after the parts ran.
 */
function SourcesAnswer({ view: v }: { view: SessionView }) {
  if (!v.sources_run) return null;
  return (
    <>
      <SourcesRunPanel run={v.sources_run} />
      {v.preview && <ResultRows preview={v.preview} name={`nl2pipeline-${v.session_id}-${v.turn_id}`} />}
      {!!v.assumptions?.length && (
        <ul class="assumptions">
          {v.assumptions.map((a, i) => (
            <li key={i}>{a}</li>
          ))}
        </ul>
      )}
    </>
  );
}

function Answer({ answer }: { answer: NonNullable<SessionView['answer']> }) {
  const data = answer.data as { name: string; columns?: { name: string; data_type: string }[] }[] | undefined;
  const authorship = answer.kind === 'message' ? answerAuthorship(answer.data) : null;
  return (
    <section class="panel" data-testid="answer-words">
      <p>{answer.text}</p>
      {authorship && <p class="hint">{authorship}</p>}
      {answer.kind === 'streams' && Array.isArray(data) && (
        <ul>
          {data.map((s) => (
            <li key={s.name}>
              <strong>{s.name}</strong>: {(s.columns ?? []).map((c) => c.name).join(', ')}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
