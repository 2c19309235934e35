import type { SessionView, StreamInfo, StreamList, TraceRecord } from './api';
import { stripAnsi, type Style } from './style';

const MAX_CELL = 48;
const CLAUSES = ['FROM', 'WHERE', 'GROUP BY', 'HAVING', 'WINDOW', 'ORDER BY', 'LIMIT', 'UNION', 'JOIN', 'LEFT JOIN'];

/**
 * Breaks a one-line SELECT before its top-level clauses (outside quotes and parentheses) so it
 * reads well in a frame. Only whitespace changes, so the text stays the same query.
 */
export function layoutSql(sql: string, width = 80): string {
  const text = sql.trim();
  if (text.includes('\n') || text.length <= width) return text;
  let out = '';
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
      out += c;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && /\s/.test(c)) {
      const rest = text.slice(i + 1);
      const clause = CLAUSES.find((k) => new RegExp(`^${k.replace(' ', '\\s+')}\\b`, 'i').test(rest));
      // Not before a JOIN already broken as part of `LEFT JOIN`.
      if (clause && !(clause === 'JOIN' && /\bLEFT$/i.test(out))) {
        out = out.trimEnd() + '\n';
        continue;
      }
    }
    out += c;
  }
  return out;
}

/** Text in a titled frame: a rule with the title, each line behind a bar, a closing rule. */
export function frame(title: string, body: string, s: Style, columns = 100): string {
  const lines = body
    .replace(/\s+$/, '')
    .split('\n')
    .map((l) => l.trimEnd());
  const widest = Math.max(title.length + 4, ...lines.map((l) => stripAnsi(l).length + 2));
  const width = Math.max(20, Math.min(widest, columns - 2));
  const top = `${s.dim('┌─')} ${s.bold(title)} ${s.dim('─'.repeat(Math.max(2, width - title.length - 3)))}`;
  const bottom = s.dim(`└${'─'.repeat(width)}`);
  return [top, ...lines.map((l) => `${s.dim('│')} ${l}`), bottom].join('\n');
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/** Rows as an aligned table with a bold header and a rule under it. */
export function table(headers: string[], rows: unknown[][], s: Style): string {
  const cells = rows.map((r) => headers.map((_, i) => cell(r[i])));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (values: string[], paint = (x: string) => x) =>
    values
      .map((v, i) => paint(i === values.length - 1 ? v : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(headers, s.bold), s.dim(widths.map((w) => '─'.repeat(w)).join('  ')), ...cells.map((r) => line(r))].join(
    '\n',
  );
}

export function previewTable(preview: NonNullable<SessionView['preview']>, s: Style): string {
  const body = preview.rows.length ? table(preview.columns, preview.rows, s) : s.dim('(no rows)');
  const note = preview.truncated ? `\n${s.dim(`… more rows not shown (first ${preview.rows.length})`)}` : '';
  return `${s.bold('preview')}\n${body}${note}`;
}

export function pipelineJson(request: Record<string, unknown>): string {
  return JSON.stringify(request, null, 2);
}

/** A turn's answer without SQL: the stream list, a schema, or a message. */
export function renderAnswer(answer: NonNullable<SessionView['answer']>, s: Style): string {
  if (answer.kind === 'streams' && Array.isArray(answer.data)) {
    const streams = answer.data as StreamInfo[];
    if (!streams.length) return answer.text;
    return streamTable(streams, 'stream', s);
  }
  if (answer.kind === 'schema' && answer.data && typeof answer.data === 'object') {
    return renderStreamSchema(answer.data as StreamInfo, s);
  }
  return answer.text;
}

function streamTable(streams: StreamInfo[], noun: string, s: Style): string {
  return table(
    [noun, 'columns'],
    streams.map((x) => [x.name, (x.columns ?? []).map((c) => c.name).join(', ')]),
    s,
  );
}

/** `GET /v1/streams`: one row per stream (table) with its column names. */
export function renderStreams(list: StreamList, s: Style): string {
  if (!list.streams.length) return `the ${list.target} engine has no ${list.source_noun}s yet`;
  return streamTable(list.streams, list.source_noun, s);
}

/** One stream's columns and types. */
export function renderStreamSchema(info: StreamInfo, s: Style, noun = 'stream'): string {
  return `${s.bold(`${noun} ${info.name}`)}\n${table(
    ['column', 'type'],
    (info.columns ?? []).map((c) => [c.name, c.data_type]),
    s,
  )}`;
}

/** What the failed attempts of this request were (the repairs), one line each. */
export function renderRepairs(view: SessionView, s: Style): string | null {
  const failures = view.attempts?.failures ?? [];
  if (!failures.length) return null;
  const lines = failures.map((f) => {
    // The engine names its temporary pipeline first; the reason is what matters here.
    const first = f.error.split('\n')[0].replace(/^failed to create pipeline \S+: /, '');
    const why = first.length > 200 ? `${first.slice(0, 199)}…` : first;
    return s.yellow(
      `✗ attempt ${f.attempt} failed ${f.stage === 'local' ? 'the local check' : 'in the engine'}: ${why}`,
    );
  });
  if (view.sql) lines.push(s.green(`✓ repaired: attempt ${view.attempts?.attempt ?? failures.length + 1} passed`));
  return lines.join('\n');
}

/** The validated draft: SQL and plan framed, preview rows as a table, assumptions. */
export function renderDraft(view: SessionView, s: Style, columns = 100): string {
  const parts: string[] = [];
  const repairs = renderRepairs(view, s);
  if (repairs) parts.push(repairs);
  if (view.sql) parts.push(frame('SQL', layoutSql(view.sql, Math.min(columns - 4, 100)), s, columns));
  if (view.explain) parts.push(frame('explain', view.explain, s, columns));
  if (view.preview) parts.push(previewTable(view.preview, s));
  else if (view.preview_error) parts.push(s.yellow(`no preview rows: ${view.preview_error}`));
  const assumptions = view.assumptions ?? [];
  if (assumptions.length) parts.push(`${s.bold('assumptions')}\n${assumptions.map((a) => `  - ${a}`).join('\n')}`);
  const earlier = likeEarlier(view);
  if (earlier) parts.push(s.dim(earlier));
  return parts.join('\n');
}

type SourcesRun = NonNullable<SessionView['sources_run']>;

/**
 * A question over several sources: what ran where (one row per part: source, engine, rows,
 * whether it hit its row limit, time), each part's SQL framed under its source and engine, then
 * the combine step in DuckDB (its SQL, rows and time). A part that hit its limit was not joined.
 */
export function renderSourcesRun(run: SourcesRun, s: Style, columns = 100): string {
  const width = Math.min(columns - 4, 100);
  const rows = run.parts.map((p) => [p.source, p.engine, p.rows, p.capped ? 'yes: not joined' : 'no', Math.round(p.elapsed_ms)]); // prettier-ignore
  const out = [`${s.bold('parts')} ${s.dim('(each ran on its own source, read-only)')}`, table(['source', 'engine', 'rows', 'at row limit', 'ms'], rows, s)]; // prettier-ignore
  for (const p of run.parts) out.push(frame(`${p.source} · ${p.engine}`, layoutSql(p.sql, width), s, columns));
  if (run.combine_sql) {
    const figures = [run.combined_rows === null ? null : `${run.combined_rows} rows`, run.combine_ms === null ? null : `${Math.round(run.combine_ms)} ms`].filter(Boolean); // prettier-ignore
    out.push(frame(`combine · DuckDB, in process${figures.length ? ` · ${figures.join(' · ')}` : ''}`, layoutSql(run.combine_sql, width), s, columns)); // prettier-ignore
  } else if (run.parts.length === 1) {
    out.push(s.dim('one source answered alone: nothing to combine'));
  }
  return out.join('\n');
}

/**
 * The answer of a question over sources: what ran where and the combine, the combined rows, the
 * assumptions (key rules among them) and the answer in words, with who wrote it.
 */
export function renderSourcesAnswer(view: SessionView, s: Style, columns = 100): string {
  const out: string[] = [];
  if (view.sources_run) out.push(renderSourcesRun(view.sources_run, s, columns));
  if (view.preview) out.push(previewTable(view.preview, s));
  const assumptions = view.assumptions ?? [];
  if (assumptions.length) out.push(`${s.bold('assumptions')}\n${assumptions.map((a) => `  - ${a}`).join('\n')}`);
  if (view.answer) out.push(`${s.bold('answer')} ${view.answer.text}${authorNote(view.answer.data, s)}`);
  return out.join('\n');
}

/** `(worded by the model)`, or why the model's sentence was not used. */
function authorNote(data: unknown, s: Style): string {
  if (!data || typeof data !== 'object') return '';
  const { written_by: by, rejected } = data as { written_by?: string; rejected?: string };
  if (by === 'model') return s.dim(' (worded by the model, every number checked against the rows)');
  return rejected ? s.dim(` (by rule: ${rejected})`) : '';
}

/** `like your earlier question '…'`, when the tenant confirmed a question close to this one. */
export function likeEarlier(view: Pick<SessionView, 'similar_to'>): string | null {
  const earlier = view.similar_to;
  return earlier ? `like your earlier question '${earlier.request}' (confirmed as: ${earlier.sql})` : null;
}

/** The per-node trace as a table (one row per node run). */
export function renderTrace(records: TraceRecord[], s: Style): string {
  const rows = records.map((r) => {
    const tokensIn = r.llm.reduce((n, c) => n + c.input_tokens, 0);
    const tokensOut = r.llm.reduce((n, c) => n + c.output_tokens, 0);
    const retries = r.llm.reduce((n, c) => n + c.retries, 0) + r.engine.reduce((n, c) => n + c.retries, 0);
    return [
      r.node,
      r.service,
      r.attempt,
      r.delivery,
      r.ok ? 'ok' : 'error',
      Math.round(r.latency_ms),
      r.llm.length ? `${r.llm.length} (${tokensIn}/${tokensOut} tok)` : '-',
      r.engine.length ? String(r.engine.length) : '-',
      retries || '-',
      r.error ?? '',
    ];
  });
  const total = records.reduce((n, r) => n + r.latency_ms, 0);
  return `${table(['node', 'service', 'attempt', 'delivery', 'result', 'ms', 'llm calls', 'engine calls', 'retries', 'error'], rows, s)}\n${s.dim(
    `${records.length} node runs, ${Math.round(total)} ms in nodes`,
  )}`;
}

/** The question of an interrupt and how to answer it at the prompt. */
export function renderInterrupt(view: SessionView, s: Style): string {
  const interrupt = view.interrupt;
  if (!interrupt) return '';
  switch (interrupt.type) {
    case 'need_stream': {
      const choices = interrupt.choices ?? [];
      const list = choices.map((c, i) => `  ${s.cyan(`${i + 1})`)} ${c}`).join('\n');
      const how = choices.length
        ? s.dim(`answer with a number (1-${choices.length}) or a stream name`)
        : s.dim('create a stream in the engine first, then ask again');
      return [`${s.magenta('?')} ${s.bold(interrupt.question)}`, list, how].filter(Boolean).join('\n');
    }
    case 'need_clarification':
      return `${s.magenta('?')} ${s.bold(interrupt.question)}\n${s.dim('type your answer')}`;
    case 'need_confirm':
      return `${s.magenta('?')} ${s.bold(interrupt.question)}\n${s.dim(
        'y = accept · n = discard · anything else is feedback to revise it · /show pipeline shows the request',
      )}`;
  }
}
