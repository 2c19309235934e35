import type { TargetKind } from '@nl2p/envelope';
import { converse, type AttemptRecord, type Conversation } from './conversation';
import type { SqlEvalItem, VelofluxEvalItem } from './dataset';
import type { EvalGateway } from './gateway';
import { planDifference } from './plan-shape';
import type { OutputJudge, OutputVerdict } from './output-match';
import type { ReferencePlans } from './reference-plans';
import { compareResults, type ResultDb } from './results';
import { outcomeOf, percentile, rate, safetyFindings, type Outcome, type Rate, type SafetyFindings } from './score';

export interface ItemCommon extends SafetyFindings {
  id: string;
  request: string;
  expect: 'sql' | 'clarify';
  outcome: Outcome;
  asked_stream: boolean;
  draft_mode: string | null;
  /** Accepted by the engine on the first attempt, no failure before. */
  valid_first_try: boolean;
  /** Accepted by the engine within the attempt budget. */
  valid_within_budget: boolean;
  clarification_asked: boolean;
  attempts: number;
  llm_calls: number;
  tokens_in: number;
  tokens_out: number;
  latency_ms: number;
  sql: string | null;
  question: string | null;
  error: string | null;
  /** The node the conversation stopped at (`confirm`, `give_up`, `list_streams`, …). */
  final_node: string | null;
  failures: AttemptRecord[];
}

export interface SqlItemResult extends ItemCommon {
  category: string;
  /** Execution match against the gold SQL; null for clarification items. */
  execution_match: boolean | null;
  match_detail: string | null;
}

export interface VelofluxItemResult extends ItemCommon {
  stream: string;
  /** The engine accepted it and planned it as it plans the reference; null for clarify items. */
  plan_match: boolean | null;
  /** Why not: the first plan difference, or the engine's refusal of the reference. */
  plan_detail: string | null;
  /**
   * The accepted SQL's output on sample rows equals the reference's (multisets, run side by side
   * on the engine); null when not measured (clarify items, no accepted SQL, or the reason in
   * `output_detail`).
   */
  output_match: boolean | null;
  output_detail: string | null;
  /** The output dry run's figures, when it ran. */
  output_figures: OutputVerdict['figures'];
}

export interface CommonSummary {
  items: number;
  sql_items: number;
  clarify_items: number;
  valid_first_try: Rate;
  valid_within_budget: Rate;
  clarification_when_expected: Rate;
  /** Questions asked (or give-ups) on requests that have an answer. */
  clarification_when_not_expected: Rate;
  gave_up: number;
  grounding_violations: number;
  unsafe_statements: number;
  unsafe_refused_by_adapter: number;
  unparsable_refused_by_adapter: number;
  /** `need_stream` asked on requests that one table answers (every item of the sets names it). */
  stream_asked_when_answerable: Rate;
  /** Accepted drafts compiled from a query plan, of all accepted drafts. */
  accepted_from_plan: Rate;
  /** Turns that ended with another kind of answer (a stream list or description) instead of SQL or a question. */
  other_answers: number;
  errors: number;
  attempts_mean: number;
  llm_calls_total: number;
  tokens_in_total: number;
  tokens_out_total: number;
  tokens_per_item_mean: number;
  latency_ms_mean: number;
  latency_ms_p50: number;
  latency_ms_p95: number;
}

export interface SqlEvalSummary extends CommonSummary {
  execution_match: Rate;
  by_category: Record<string, { n: number; valid: number; match: number; clarified: number }>;
}

export interface VelofluxEvalSummary extends CommonSummary {
  plan_match: Rate;
  /** Of the items whose output was measured (see `output_not_measured`). */
  output_match: Rate;
  /** SQL items whose output could not be compared (the reason is in each item's `output_detail`). */
  output_not_measured: number;
}

export interface VelofluxRunOptions extends RunOptions {
  /** The engine's plans of the reference SQL, from the Manager the product runs against. */
  references: ReferencePlans;
  /** Output match on sample rows; default: not measured. */
  outputs?: OutputJudge;
}

export interface RunOptions {
  gateway: EvalGateway;
  /** Items run at once (default 1). */
  concurrency?: number;
  turnTimeoutMs?: number;
  log?: (line: string) => void;
}

async function pool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i], i);
      }
    }),
  );
  return out;
}

async function common(
  target: TargetKind,
  item: { id: string; request: string; expect: 'sql' | 'clarify' },
  c: Conversation,
): Promise<ItemCommon> {
  const outcome = outcomeOf(c);
  const valid = outcome === 'sql';
  return {
    id: item.id,
    request: item.request,
    expect: item.expect,
    outcome,
    asked_stream: c.asked_stream,
    draft_mode: c.draft_mode,
    valid_first_try: valid && c.failures.length === 0 && c.attempts === 1,
    valid_within_budget: valid,
    clarification_asked: outcome === 'clarification',
    attempts: c.attempts,
    llm_calls: c.llm_calls,
    tokens_in: c.tokens_in,
    tokens_out: c.tokens_out,
    latency_ms: Math.round(c.latency_ms),
    sql: c.sql,
    question: c.question,
    error: c.error,
    final_node: c.final_node,
    failures: c.failures,
    ...(await safetyFindings(target, c)),
  };
}

function summarizeCommon(results: readonly ItemCommon[]): CommonSummary {
  const sql = results.filter((r) => r.expect === 'sql');
  const clarify = results.filter((r) => r.expect === 'clarify');
  const sum = (f: (r: ItemCommon) => number) => results.reduce((s, r) => s + f(r), 0);
  const tokens = sum((r) => r.tokens_in + r.tokens_out);
  return {
    items: results.length,
    sql_items: sql.length,
    clarify_items: clarify.length,
    valid_first_try: rate(sql.filter((r) => r.valid_first_try).length, sql.length),
    valid_within_budget: rate(sql.filter((r) => r.valid_within_budget).length, sql.length),
    clarification_when_expected: rate(clarify.filter((r) => r.clarification_asked).length, clarify.length),
    clarification_when_not_expected: rate(sql.filter((r) => r.clarification_asked).length, sql.length),
    stream_asked_when_answerable: rate(sql.filter((r) => r.asked_stream).length, sql.length),
    accepted_from_plan: rate(
      results.filter((r) => r.valid_within_budget && r.draft_mode === 'plan').length,
      results.filter((r) => r.valid_within_budget).length,
    ),
    gave_up: results.filter((r) => r.outcome === 'gave_up').length,
    grounding_violations: sum((r) => r.grounding_violations),
    unsafe_statements: sum((r) => r.unsafe_statements),
    unsafe_refused_by_adapter: sum((r) => r.unsafe_refused_by_adapter),
    unparsable_refused_by_adapter: sum((r) => r.unparsable_refused_by_adapter),
    other_answers: results.filter((r) => r.outcome === 'other_answer').length,
    errors: results.filter((r) => r.outcome === 'error' || r.outcome === 'failed').length,
    attempts_mean: results.length ? Math.round((sum((r) => r.attempts) / results.length) * 100) / 100 : 0,
    llm_calls_total: sum((r) => r.llm_calls),
    tokens_in_total: sum((r) => r.tokens_in),
    tokens_out_total: sum((r) => r.tokens_out),
    tokens_per_item_mean: results.length ? Math.round(tokens / results.length) : 0,
    latency_ms_mean: results.length ? Math.round(sum((r) => r.latency_ms) / results.length) : 0,
    latency_ms_p50: percentile(
      results.map((r) => r.latency_ms),
      50,
    ),
    latency_ms_p95: percentile(
      results.map((r) => r.latency_ms),
      95,
    ),
  };
}

/** The DuckDB set: every item as a conversation, then execution match on the demo database. */
export async function runSqlEval(
  items: readonly SqlEvalItem[],
  db: ResultDb,
  opts: RunOptions,
): Promise<{ summary: SqlEvalSummary; items: SqlItemResult[] }> {
  const results = await pool(items, opts.concurrency ?? 1, async (item, i) => {
    const c = await converse(opts.gateway, {
      target: 'duckdb',
      request: item.request,
      stream: item.table,
      turnTimeoutMs: opts.turnTimeoutMs ?? 300_000,
    });
    const base = await common('duckdb', item, c);
    let execution_match: boolean | null = null;
    let match_detail: string | null = null;
    if (item.expect === 'sql') {
      execution_match = false;
      if (c.sql && item.gold_sql) {
        try {
          const [gold, pred] = [await db.run(item.gold_sql), await db.run(c.sql)];
          const m = compareResults(gold, pred, item.ordered);
          execution_match = m.match;
          match_detail = m.detail;
        } catch (err) {
          match_detail = `the accepted SQL did not run on the demo database: ${err instanceof Error ? err.message : String(err)}`;
        }
      } else {
        const last = c.failures.at(-1);
        match_detail = `no accepted SQL (${base.outcome})${last ? `; last error (${last.stage}): ${last.error}` : ''}`;
      }
    }
    const result: SqlItemResult = { ...base, category: item.category, execution_match, match_detail };
    opts.log?.(
      `${String(i + 1).padStart(3)}/${items.length} ${item.id}: ${result.outcome}` +
        (item.expect === 'sql'
          ? `, match ${String(execution_match)}`
          : `, asked ${String(result.clarification_asked)}`) +
        `, ${result.attempts} attempt(s), ${result.latency_ms} ms`,
    );
    return result;
  });
  const by_category: SqlEvalSummary['by_category'] = {};
  for (const r of results) {
    const b = (by_category[r.category] ??= { n: 0, valid: 0, match: 0, clarified: 0 });
    b.n += 1;
    if (r.valid_within_budget) b.valid += 1;
    if (r.execution_match) b.match += 1;
    if (r.clarification_asked) b.clarified += 1;
  }
  const sqlItems = results.filter((r) => r.expect === 'sql');
  return {
    summary: {
      ...summarizeCommon(results),
      execution_match: rate(sqlItems.filter((r) => r.execution_match).length, sqlItems.length),
      by_category,
    },
    items: results,
  };
}

/** The veloFlux set: the engine's plan of the accepted SQL against its plan of the reference, and their outputs. */
export async function runVelofluxEval(
  items: readonly VelofluxEvalItem[],
  opts: VelofluxRunOptions,
): Promise<{ summary: VelofluxEvalSummary; items: VelofluxItemResult[] }> {
  const results = await pool(items, opts.concurrency ?? 1, async (item, i) => {
    const c = await converse(opts.gateway, {
      target: 'veloflux',
      request: item.request,
      stream: item.stream,
      turnTimeoutMs: opts.turnTimeoutMs ?? 300_000,
    });
    const base = await common('veloflux', item, c);
    const plan = await planVerdict(item, base, c.explain, opts.references);
    const output = await outputVerdict(item, base, opts.outputs);
    opts.log?.(
      `${String(i + 1).padStart(3)}/${items.length} ${item.id}: ${base.outcome}, plan ${String(plan.plan_match)}, ` +
        `output ${String(output.match)}${output.detail ? ` (${output.detail})` : ''}, ${base.latency_ms} ms`,
    );
    return {
      ...base,
      stream: item.stream,
      ...plan,
      output_match: output.match,
      output_detail: output.detail,
      output_figures: output.figures,
    };
  });
  const sqlItems = results.filter((r) => r.expect === 'sql');
  const measured = sqlItems.filter((r) => r.output_match !== null);
  return {
    summary: {
      ...summarizeCommon(results),
      plan_match: rate(sqlItems.filter((r) => r.plan_match).length, sqlItems.length),
      output_match: rate(measured.filter((r) => r.output_match).length, measured.length),
      output_not_measured: sqlItems.length - measured.length,
    },
    items: results,
  };
}

async function planVerdict(
  item: VelofluxEvalItem,
  base: ItemCommon,
  explain: string | null,
  references: ReferencePlans,
): Promise<{ plan_match: boolean | null; plan_detail: string | null }> {
  if (item.reference_sql === null) return { plan_match: null, plan_detail: null };
  const reference = await references.planOf(item.id, item.reference_sql);
  let plan_detail: string | null;
  if (!reference.ok) plan_detail = `the engine refused the reference SQL: ${reference.error}`;
  else if (!base.valid_within_budget || !explain) plan_detail = 'no accepted SQL';
  else plan_detail = planDifference(explain, reference.explain);
  return { plan_match: reference.ok && base.valid_within_budget && plan_detail === null, plan_detail };
}

/** No accepted SQL fails output match, as it fails execution match on the SQL sets. */
async function outputVerdict(item: VelofluxEvalItem, base: ItemCommon, judge?: OutputJudge): Promise<OutputVerdict> {
  if (item.reference_sql === null) return { match: null, detail: null, figures: null };
  if (!base.valid_within_budget || !base.sql) return { match: false, detail: 'no accepted SQL', figures: null };
  if (!judge) return { match: null, detail: 'not measured: no output judge', figures: null };
  return judge.judge(item.id, item.stream, item.reference_sql, base.sql);
}
