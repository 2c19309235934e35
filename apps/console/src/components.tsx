import hljs from 'highlight.js/lib/core';
import sql from 'highlight.js/lib/languages/sql';
import { useState } from 'preact/hooks';
import type { StreamInfo, TraceRecord } from './api';

hljs.registerLanguage('sql', sql);

/** SQL with syntax colours (highlight.js escapes the text; nothing from the SQL becomes markup). */
export function SqlBlock({ sql: text }: { sql: string }) {
  return (
    <pre class="code sql" aria-label="SQL">
      <code
        class="hljs language-sql"
        dangerouslySetInnerHTML={{ __html: hljs.highlight(text, { language: 'sql' }).value }}
      />
    </pre>
  );
}

/** Copies `text` to the clipboard, saying whether it worked. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );
  };
  return (
    <button type="button" onClick={copy}>
      {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed: select the text' : label}
    </button>
  );
}

export function PipelineRequest({ request }: { request: Record<string, unknown> }) {
  const json = JSON.stringify(request, null, 2);
  return (
    <section class="panel" aria-label="Pipeline request">
      <header class="panel-head">
        <h3>Pipeline request</h3>
        <CopyButton text={json} label="Copy JSON" />
      </header>
      <p class="hint">POST it to the engine's /pipelines after setting a real id.</p>
      <pre class="code" data-testid="pipeline-request">
        {json}
      </pre>
    </section>
  );
}

/** The turn's node runs from the trace endpoint, as bars scaled to the slowest. */
export function Timeline({ records }: { records: TraceRecord[] }) {
  if (!records.length) return null;
  const longest = Math.max(...records.map((r) => r.latency_ms), 1);
  const total = records.reduce((sum, r) => sum + r.latency_ms, 0);
  return (
    <details class="panel timeline">
      <summary>
        Timeline: {records.length} node runs, {total} ms
      </summary>
      <ol>
        {records.map((r, i) => {
          const tokens = r.llm.reduce((sum, c) => sum + c.input_tokens + c.output_tokens, 0);
          return (
            <li key={i} class={r.ok ? 'ok' : 'failed'}>
              <span class="node">
                {r.ok ? '✓' : '✗'} {r.node}
                {r.attempt > 1 ? ` (attempt ${r.attempt})` : ''}
              </span>
              <span class="bar" aria-hidden="true">
                <span style={{ width: `${Math.max(2, (r.latency_ms / longest) * 100)}%` }} />
              </span>
              <span class="latency">{r.latency_ms} ms</span>
              <span class="calls">
                {r.service}
                {r.llm.length ? ` · ${r.llm.length} LLM call${r.llm.length > 1 ? 's' : ''}, ${tokens} tokens` : ''}
                {r.engine.length ? ` · ${r.engine.length} engine call${r.engine.length > 1 ? 's' : ''}` : ''}
              </span>
              {r.error && <span class="error-text">{r.error}</span>}
            </li>
          );
        })}
      </ol>
    </details>
  );
}

export function StreamsPanel({
  streams,
  noun,
  onUse,
}: {
  streams: StreamInfo[];
  noun: string;
  onUse: (name: string) => void;
}) {
  if (!streams.length) return <p class="hint">The engine has no {noun}s yet.</p>;
  return (
    <ul class="streams">
      {streams.map((s) => (
        <li key={s.name}>
          <details>
            <summary>{s.name}</summary>
            <table>
              <tbody>
                {s.columns.map((c) => (
                  <tr key={c.name}>
                    <td>{c.name}</td>
                    <td class="type">{c.data_type}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <button type="button" class="link" onClick={() => onUse(s.name)}>
              Use {s.name} for new requests
            </button>
          </details>
        </li>
      ))}
    </ul>
  );
}

export function KeyForm({ message, onSave }: { message: string; onSave: (key: string) => void }) {
  const [key, setKey] = useState('');
  return (
    <form
      class="panel key-form"
      aria-label="API key"
      onSubmit={(e) => {
        e.preventDefault();
        if (key.trim()) onSave(key.trim());
      }}
    >
      <h2>API key</h2>
      <p role="alert">{message}</p>
      <label>
        Your API key (kept in this tab only)
        <input
          type="password"
          autoComplete="off"
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
          autoFocus
        />
      </label>
      <button type="submit">Use this key</button>
    </form>
  );
}
