import type { SessionView } from './api';
import { SqlBlock } from './components';

type SourcesRun = NonNullable<SessionView['sources_run']>;

/** Who wrote the answer in words, as the view's `answer.data` says; null when it does not say. */
export function answerAuthorship(data: unknown): string | null {
  if (!data || typeof data !== 'object') return null;
  const { written_by: by, rejected } = data as { written_by?: string; rejected?: string };
  if (by === 'model') return 'Worded by the model; every number in it was checked against the rows.';
  if (by === 'template') return rejected ? `Written by rule: ${rejected}.` : 'Written by rule from the rows.';
  return null;
}

/**
 * A question answered across sources: what ran where (each part's source, engine, rows, whether
 * it hit its row limit, time), each part's SQL with its engine's explain one click away, and the
 * combine step in the in-process DuckDB with its SQL, rows and time.
 */
export function SourcesRunPanel({ run }: { run: SourcesRun }) {
  return (
    <section class="panel" aria-label="Parts by source" data-testid="sources-run">
      <header class="panel-head">
        <h3>Where it ran</h3>
      </header>
      <table class="rows" data-testid="sources-parts">
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">Engine</th>
            <th scope="col">Rows</th>
            <th scope="col">At row limit</th>
            <th scope="col">ms</th>
          </tr>
        </thead>
        <tbody>
          {run.parts.map((p) => (
            <tr key={p.id} data-source={p.source}>
              <td>{p.source}</td>
              <td>{p.engine}</td>
              <td>{p.rows}</td>
              <td>{p.capped ? 'yes: not joined' : 'no'}</td>
              <td>{Math.round(p.elapsed_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {run.parts.map((p) => (
        <details key={p.id} class="part" data-testid={`part-${p.source}`} open>
          <summary>
            {p.source} · {p.engine}
          </summary>
          <SqlBlock sql={p.sql} />
          <details>
            <summary>{p.engine}'s explain</summary>
            <pre class="code plan">{p.explain}</pre>
          </details>
        </details>
      ))}
      {run.combine_sql ? (
        <details class="part" data-testid="combine" open>
          <summary>{combineTitle(run)}</summary>
          <SqlBlock sql={run.combine_sql} />
        </details>
      ) : (
        run.parts.length === 1 && <p class="hint">One source answered alone: nothing to combine.</p>
      )}
    </section>
  );
}

function combineTitle(run: SourcesRun): string {
  const figures = [
    run.combined_rows === null ? null : `${run.combined_rows} rows`,
    run.combine_ms === null ? null : `${Math.round(run.combine_ms)} ms`,
  ].filter(Boolean);
  return `Combine · DuckDB, in process${figures.length ? ` · ${figures.join(' · ')}` : ''}`;
}
