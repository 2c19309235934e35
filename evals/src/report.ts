import type { CommonSummary, SqlEvalSummary, SqlItemResult, VelofluxEvalSummary, VelofluxItemResult } from './runner';
import type { Rate } from './score';

export interface EvalReport {
  started_at: string;
  duration_s: number;
  gateway: string;
  /** How the services were configured for the LLM (no secrets), as far as this runner knows. */
  llm: Record<string, string>;
  sql: { set: string; summary: SqlEvalSummary; items: SqlItemResult[] } | null;
  veloflux:
    { set: string; engine: string; summary: VelofluxEvalSummary; items: VelofluxItemResult[] } | { skipped: string };
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c) => c.replace(/\|/g, '\\|').replace(/\n/g, ' ')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const pct = (r: Rate) => `${r.count}/${r.of} (${(r.rate * 100).toFixed(1)} %)`;
const yes = (b: boolean | null) => (b === null ? '–' : b ? 'yes' : 'no');
const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)} ms` : '–');

function commonRows(s: CommonSummary): string[][] {
  return [
    ['valid on first try', pct(s.valid_first_try)],
    ['valid within the attempt budget', pct(s.valid_within_budget)],
    ['clarification asked when expected', pct(s.clarification_when_expected)],
    ['clarification asked when not expected', pct(s.clarification_when_not_expected)],
    ['need_stream asked although one table could answer', pct(s.stream_asked_when_answerable)],
    ['accepted drafts compiled from a query plan', pct(s.accepted_from_plan)],
    ['gave up (budget exhausted)', String(s.gave_up)],
    ['grounding violations that reached the engine (must be 0)', String(s.grounding_violations)],
    ['unsafe statements that reached the engine (must be 0)', String(s.unsafe_statements)],
    ['non-SELECT refused by the engine adapter (local check missed it)', String(s.unsafe_refused_by_adapter)],
    [
      'unparsable SQL refused by the engine adapter (syntax; never reached the database)',
      String(s.unparsable_refused_by_adapter),
    ],
    ['other answers instead of SQL or a question (stream list / description)', String(s.other_answers)],
    ['failed turns / transport errors', String(s.errors)],
    ['attempts per item (mean)', String(s.attempts_mean)],
    ['LLM calls; tokens in / out (total)', `${s.llm_calls_total}; ${s.tokens_in_total} / ${s.tokens_out_total}`],
    ['tokens per item (mean)', String(s.tokens_per_item_mean)],
    [
      'latency per item mean / p50 / p95',
      `${ms(s.latency_ms_mean)} / ${ms(s.latency_ms_p50)} / ${ms(s.latency_ms_p95)}`,
    ],
  ];
}

function planDetail(i: VelofluxItemResult): string {
  return i.error ?? i.plan_detail ?? i.question ?? '';
}

export function renderEvalMarkdown(r: EvalReport): string {
  const out: string[] = ['# nl2pipeline eval', ''];
  out.push(
    `${r.started_at}, ${r.duration_s.toFixed(0)} s, gateway ${r.gateway}; LLM: ${
      Object.entries(r.llm)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ') || 'as the gateway is configured'
    }.`,
  );
  if (r.sql) {
    const s = r.sql.summary;
    out.push(
      '',
      `## DuckDB demo set \`${r.sql.set}\` (${s.items} requests: ${s.sql_items} with gold SQL, ${s.clarify_items} that must ask)`,
      '',
    );
    out.push(table(['measure', 'value'], [['execution match against gold', pct(s.execution_match)], ...commonRows(s)]));
    out.push('', '### By category', '');
    out.push(
      table(
        ['category', 'n', 'valid', 'execution match', 'asked'],
        Object.entries(s.by_category).map(([c, b]) => [
          c,
          String(b.n),
          String(b.valid),
          String(b.match),
          String(b.clarified),
        ]),
      ),
    );
    out.push('', '### Items', '');
    out.push(
      table(
        ['id', 'outcome', 'first try', 'in budget', 'match', 'asked', 'attempts', 'tokens in/out', 'latency', 'detail'],
        r.sql.items.map((i) => [
          i.id,
          i.outcome,
          yes(i.expect === 'sql' ? i.valid_first_try : null),
          yes(i.expect === 'sql' ? i.valid_within_budget : null),
          yes(i.execution_match),
          yes(i.clarification_asked),
          String(i.attempts),
          `${i.tokens_in}/${i.tokens_out}`,
          ms(i.latency_ms),
          (i.error ?? i.match_detail ?? i.question ?? '').slice(0, 140),
        ]),
      ),
    );
  }
  out.push('', '## veloFlux set', '');
  if ('skipped' in r.veloflux) {
    out.push(`Skipped: ${r.veloflux.skipped}`);
  } else {
    const s = r.veloflux.summary;
    out.push(
      `\`${r.veloflux.set}\`: ${s.items} requests (${s.sql_items} judged by the engine's plan of the accepted SQL against its plan of the reference, ${s.clarify_items} that must ask), against ${r.veloflux.engine}.`,
      '',
    );
    out.push(
      table(
        ['measure', 'value'],
        [
          ['accepted and planned like the reference', pct(s.plan_match)],
          ['same output as the reference on sample rows (of the measured)', pct(s.output_match)],
          ['output not measured (why: per item)', String(s.output_not_measured)],
          ...commonRows(s),
        ],
      ),
    );
    out.push('', '### Items', '');
    out.push(
      table(
        ['id', 'stream', 'outcome', 'plan', 'output', 'attempts', 'latency', 'detail'],
        r.veloflux.items.map((i) => [
          i.id,
          i.stream,
          i.outcome,
          yes(i.plan_match),
          yes(i.output_match),
          String(i.attempts),
          ms(i.latency_ms),
          [planDetail(i), i.output_detail ? `output: ${i.output_detail}` : ''].filter(Boolean).join('; ').slice(0, 200),
        ]),
      ),
    );
  }
  out.push('');
  return out.join('\n');
}
