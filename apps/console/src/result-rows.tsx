import { useMemo, useState } from 'preact/hooks';
import type { Preview } from '@nl2p/envelope';
import { plainMessage, type RunResult } from './api';
import { chooseChart } from './chart-rule';
import { previewCsv } from './csv';
import { formatCell, rowCount } from './format';
import { lazyComponent } from './lazy';

const ResultChart = lazyComponent(() => import('./result-chart'));
/** Rows shown per page of the table (the CSV has them all). */
const PAGE = 50;
const DEFAULT_RUN_LIMIT = 1000;

/** Saves `text` as a file the browser downloads. */
function downloadText(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/**
 * The answer's rows: the preview the check left, and (SQL targets, the session's current answer)
 * a run beyond it up to a row limit the server enforces; a chart when the rows suit one, a table
 * a page at a time, and the rows shown as CSV.
 */
export function ResultRows({
  preview,
  name,
  run,
}: {
  preview: Preview;
  name: string;
  /** Runs the answer up to `limit` rows; absent where nothing can run (a past turn, a streaming engine). */
  run?: (limit: number) => Promise<RunResult>;
}) {
  const [result, setResult] = useState<RunResult | null>(null);
  const [limit, setLimit] = useState(DEFAULT_RUN_LIMIT);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(0);
  const shown: Preview = result ?? preview;
  const chart = useMemo(() => chooseChart(shown.columns, shown.rows), [shown]);
  const pages = Math.max(1, Math.ceil(shown.rows.length / PAGE));

  const runIt = async (e: Event) => {
    e.preventDefault();
    if (!run) return;
    setRunning(true);
    setError(null);
    try {
      setResult(await run(limit));
      setPage(0);
    } catch (err) {
      setError(plainMessage(err));
    } finally {
      setRunning(false);
    }
  };

  const title = result
    ? `Result: ${rowCount(result.rows.length, result.truncated)}${result.truncated ? ` (limit ${result.limit})` : ''}, ${result.elapsed_ms} ms`
    : `Preview: ${rowCount(preview.rows.length, preview.truncated)}`;
  return (
    <section class="panel" aria-label={result ? 'Result rows' : 'Preview rows'}>
      <header class="panel-head">
        <h3>{title}</h3>
        <button type="button" onClick={() => downloadText(previewCsv(shown), `${name}.csv`, 'text/csv')}>
          Download CSV
        </button>
      </header>
      {run && (
        <form class="run" onSubmit={(e) => void runIt(e)} aria-label="Run the query">
          <label>
            Rows, at most{' '}
            <input
              type="number"
              min={1}
              step={1}
              value={limit}
              onInput={(e) => setLimit(Math.max(1, Math.floor(Number(e.currentTarget.value)) || 1))}
            />
          </label>
          <button type="submit" disabled={running}>
            {running ? 'Running…' : result ? 'Run again' : 'Run'}
          </button>
          <span class="hint">read-only; the server caps the rows</span>
        </form>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {chart && <ResultChart choice={chart} columns={shown.columns} rows={shown.rows} />}
      <RowsTable columns={shown.columns} rows={shown.rows.slice(page * PAGE, (page + 1) * PAGE)} />
      {pages > 1 && (
        <nav class="pager" aria-label="Pages of rows">
          <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span>
            Rows {page * PAGE + 1}–{Math.min((page + 1) * PAGE, shown.rows.length)} of {shown.rows.length}
          </span>
          <button type="button" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      )}
      {shown.truncated && (
        <p class="hint">
          There are more rows than {result ? 'the limit' : 'the preview'} shows
          {run ? ': run with a higher limit.' : '.'}
        </p>
      )}
    </section>
  );
}

function RowsTable({ columns, rows }: { columns: string[]; rows: unknown[][] }) {
  return (
    <div class="table-scroll">
      <table class="preview">
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" key={c}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {row.map((cell, j) => (
                <td key={j} class={typeof cell === 'number' ? 'num' : undefined}>
                  {cell === null ? <span class="null">NULL</span> : formatCell(cell)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
