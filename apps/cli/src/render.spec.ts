import { emptyMetrics } from '@nl2p/envelope';
import type { SessionView } from './api';
import {
  frame,
  layoutSql,
  previewTable,
  renderDraft,
  renderInterrupt,
  renderSourcesAnswer,
  renderSourcesRun,
  renderTrace,
  table,
} from './render';
import { colourEnabled, makeStyle, stripAnsi } from './style';

const plain = makeStyle(false);
const SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE note <> 'a FROM b' GROUP BY device_id, tumblingwindow('ss', 10)";

function view(partial: Partial<SessionView>): SessionView {
  return {
    session_id: 'a'.repeat(32),
    status: 'waiting',
    turn_id: 1,
    target: 'veloflux',
    sources: null,
    sources_run: null,
    node: 'confirm',
    active_stream: 'sensor_stream',
    interrupt: null,
    request: 'r',
    sql: null,
    explain: null,
    pipeline_request: null,
    draft_mode: null,
    query_plan: null,
    assumptions: [],
    warnings: [],
    resolutions: [],
    similar_to: null,
    questions: [],
    preview: null,
    preview_error: null,
    answer: null,
    error: null,
    attempts: { attempt: 0, max_attempts: 3, failures: [] },
    metrics: emptyMetrics(),
    updated_at: '2026-01-01T00:00:00.000Z',
    ...partial,
  };
}

describe('rendering', () => {
  it('lays a long SELECT out by clause, outside quotes and parentheses, changing only whitespace', () => {
    const laid = layoutSql(SQL);
    expect(laid.split('\n')).toEqual([
      'SELECT device_id, avg(temperature) AS avg_temp',
      'FROM sensor_stream',
      "WHERE note <> 'a FROM b'",
      "GROUP BY device_id, tumblingwindow('ss', 10)",
    ]);
    expect(laid.replace(/\s+/g, ' ')).toBe(SQL);
    expect(layoutSql('SELECT 1 FROM s')).toBe('SELECT 1 FROM s');
  });

  it('frames text with a title', () => {
    expect(frame('SQL', 'SELECT 1\nFROM s   ', plain).split('\n')).toEqual([
      '┌─ SQL ──────────────',
      '│ SELECT 1',
      '│ FROM s',
      '└────────────────────',
    ]);
  });

  it('aligns table columns, shows null and JSON values, and cuts long cells', () => {
    const t = table(
      ['a', 'bb'],
      [
        [1, null],
        ['x'.repeat(60), { k: [1] }],
      ],
      plain,
    ).split('\n');
    expect(t[0]).toBe(`a${' '.repeat(47)}  bb`);
    expect(t[2]).toBe(`1${' '.repeat(47)}  null`);
    expect(t[3]).toBe(`${'x'.repeat(47)}…  {"k":[1]}`);
  });

  it('shows preview rows as a table and says when there are more', () => {
    const out = previewTable({ columns: ['device', 'avg'], rows: [['d1', 31.5]], truncated: true }, plain);
    expect(out).toContain('device  avg');
    expect(out).toContain('d1      31.5');
    expect(out).toContain('more rows not shown');
  });

  it('shows a repaired draft: failures, framed SQL and plan, preview', () => {
    const out = renderDraft(
      view({
        sql: SQL,
        explain: 'Logical Plan Explain:\n- id | info',
        preview: { columns: ['n'], rows: [[1]], truncated: false },
        attempts: {
          attempt: 2,
          max_attempts: 3,
          failures: [
            { attempt: 1, sql: 'x', stage: 'engine', error: 'failed to create pipeline tmp_1: no such column' },
          ],
        },
      }),
      plain,
    );
    expect(out).toContain('✗ attempt 1 failed in the engine: no such column');
    expect(out).toContain('✓ repaired: attempt 2 passed');
    expect(out).toContain('┌─ SQL');
    expect(out).toContain('┌─ explain');
    expect(out).toContain('preview\nn\n─\n1');
  });

  it('says which earlier question of the tenant the request is like', () => {
    const earlier = { request: 'total revenue per country', sql: 'SELECT 2', confirmed_at: '2026-01-01T00:00:00.000Z' };
    const out = renderDraft(view({ sql: 'SELECT 1', similar_to: earlier }), plain);
    expect(out).toContain("like your earlier question 'total revenue per country' (confirmed as: SELECT 2)");
    expect(renderDraft(view({ sql: 'SELECT 1' }), plain)).not.toContain('earlier question');
  });

  it('says why there are no preview rows when the preview failed', () => {
    const out = renderDraft(view({ sql: 'SELECT 1', preview: null, preview_error: 'the preview ran past 5 s' }), plain);
    expect(out).toContain('no preview rows: the preview ran past 5 s');
  });

  it('numbers the choices of need_stream', () => {
    const out = renderInterrupt(
      view({ interrupt: { type: 'need_stream', question: 'Which stream?', choices: ['a', 'b'] } }),
      plain,
    );
    expect(out).toBe('? Which stream?\n  1) a\n  2) b\nanswer with a number (1-2) or a stream name');
  });

  it('shows the trace as a table', () => {
    const out = renderTrace(
      [
        {
          turn_id: 1,
          node: 'draft_sql',
          service: 'sql-drafter',
          attempt: 0,
          delivery: 1,
          start: '',
          end: '',
          latency_ms: 12.4,
          ok: true,
          error: null,
          llm: [{ model: 'm', input_tokens: 10, output_tokens: 5, latency_ms: 10, finish_reason: 'stop', retries: 1 }],
          engine: [],
        },
      ],
      plain,
    );
    expect(out).toMatch(
      /^node\s+service\s+attempt\s+delivery\s+result\s+ms\s+llm calls\s+engine calls\s+retries\s+error/,
    );
    expect(out).toMatch(/draft_sql\s+sql-drafter\s+0\s+1\s+ok\s+12\s+1 \(10\/5 tok\)\s+-\s+1/);
  });
});

describe('colours', () => {
  it('only on a TTY, never with NO_COLOR, --no-color or TERM=dumb, always with FORCE_COLOR', () => {
    expect(colourEnabled({ isTTY: true }, {})).toBe(true);
    expect(colourEnabled({ isTTY: false }, {})).toBe(false);
    expect(colourEnabled({}, {})).toBe(false);
    expect(colourEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colourEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(colourEnabled({ isTTY: true }, {}, { noColor: true })).toBe(false);
    expect(colourEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourEnabled({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
  });

  it('styles with ANSI codes only when enabled', () => {
    expect(makeStyle(true).red('x')).toBe('\x1b[31mx\x1b[39m');
    expect(makeStyle(false).red('x')).toBe('x');
    expect(stripAnsi(makeStyle(true).bold(makeStyle(true).cyan('y')))).toBe('y');
  });
});

describe('a question over sources', () => {
  const run = {
    parts: [
      { id: 'scan_shop', source: 'shop', engine: 'DuckDB', sql: 'SELECT device_id, temperature FROM sensor_readings', explain: 'SEQ_SCAN', rows: 1200, capped: false, elapsed_ms: 12.4 },
      { id: 'scan_crm', source: 'crm', engine: 'PostgreSQL', sql: 'SELECT device_id, site FROM devices', explain: 'Seq Scan', rows: 6, capped: false, elapsed_ms: 8 },
    ],
    combine_sql: 'SELECT scan_crm.site, avg(scan_shop.temperature) FROM scan_shop JOIN scan_crm ON scan_shop.device_id = scan_crm.device_id GROUP BY 1',
    combine_ms: 3.2,
    combined_rows: 3,
  }; // prettier-ignore

  it('shows what ran where, the rows of each part, and the combine step with its SQL', () => {
    const text = stripAnsi(renderSourcesRun(run, plain));
    const lines = text.split('\n');
    expect(lines.find((l) => l.startsWith('shop '))).toMatch(/^shop\s+DuckDB\s+1200\s+no\s+12$/);
    expect(lines.find((l) => l.startsWith('crm '))).toMatch(/^crm\s+PostgreSQL\s+6\s+no\s+8$/);
    expect(text).toContain('┌─ shop · DuckDB');
    expect(text).toContain('│ SELECT device_id, site FROM devices');
    expect(text).toContain('┌─ combine · DuckDB, in process · 3 rows · 3 ms');
    expect(text).toMatch(/│ JOIN scan_crm ON scan_shop\.device_id = scan_crm\.device_id/);
  });

  it('marks a part that hit its row limit as not joined, and a lone source as nothing to combine', () => {
    const capped = { ...run, parts: [{ ...run.parts[0], capped: true }, run.parts[1]], combine_sql: null, combine_ms: null, combined_rows: null }; // prettier-ignore
    const text = renderSourcesRun(capped, plain);
    expect(text).toMatch(/^shop\s+DuckDB\s+1200\s+yes: not joined\s+12$/m);
    expect(text).not.toContain('combine');
    const alone = renderSourcesRun({ ...run, parts: [run.parts[1]], combine_sql: null, combine_ms: null }, plain);
    expect(alone).toContain('one source answered alone: nothing to combine');
  });

  it('ends with the combined rows, the assumptions and the answer in words, saying who wrote it', () => {
    const answered = view({
      status: 'idle',
      sources: 'all',
      sources_run: run,
      preview: { columns: ['site', 'avg'], rows: [['berlin-lab', 21.8]], truncated: false },
      assumptions: ['device ids were compared ignoring case'],
      answer: { kind: 'message', text: 'Site berlin-lab averages 21.8.', data: { written_by: 'model' } },
    });
    const text = renderSourcesAnswer(answered, plain);
    expect(text.indexOf('combine ·')).toBeLessThan(text.indexOf('preview'));
    expect(text).toContain('  - device ids were compared ignoring case');
    expect(text).toMatch(/answer Site berlin-lab averages 21\.8\. \(worded by the model, every number checked/);
    const refused = { ...answered, answer: { kind: 'message' as const, text: 'The result is one row.', data: { written_by: 'template', rejected: "the model's sentence states 40, which no row holds" } } }; // prettier-ignore
    expect(renderSourcesAnswer(refused, plain)).toContain(
      "(by rule: the model's sentence states 40, which no row holds)",
    );
  });
});
