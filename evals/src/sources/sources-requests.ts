import type { LinkSchema } from '@nl2p/linking';
import type { EvalGateway, SessionView } from '../gateway';
import { readOnce } from '../offline/read-once';
import { compareResults, type ResultDb } from '../results';
import { percentile } from '../score';
import type { CrossSourceItem } from './cross-source-set';

/**
 * The request-reading cross-source run: each item's natural-language request sent as a person
 * would, to a gateway whose session reads all SQL sources, and the turn's outcome scored against
 * the gold rows of one combined database. The reading, the split into per-source scans with
 * push-down, the combine and the answer in words are all the product's own.
 */

/**
 * `match`: answered with the gold rows; `wrong`: answered (rows presented as the answer) but not
 * the gold rows; `asked`: the turn ended in a question; `failed`: the turn failed or timed out.
 */
export type RequestVerdict = 'match' | 'wrong' | 'asked' | 'failed';

export interface RequestResult {
  id: string;
  request: string;
  note: string | null;
  expect: CrossSourceItem['expect'];
  verdict: RequestVerdict;
  /** Why not a match, the question asked, or which columns answered. */
  detail: string;
  /** The sources whose parts ran, in the order the view lists them. */
  parts: string[];
  /** Each part's SQL under its source: where the filters went. */
  part_sql: string[];
  combine_sql: string | null;
  answer: string | null;
  llm_calls: number;
  latency_ms: number;
  /** `clarify` items: whether the question is about what the item says it must be (`asks`). */
  asked_for_reason: boolean | null;
  /** Answerable items: the same request read on one database holding every table (no split). */
  one_database: OneDatabaseVerdict | null;
}

/** The no-model path over one database: `model` is a reading not conclusive enough to take without one. */
export type OneDatabaseVerdict = 'match' | 'wrong' | 'asked' | 'model';

/** The outcome of one request's turn as the view shows it, before scoring. */
interface Turn {
  view: SessionView | null;
  error: string | null;
  llm_calls: number;
  latency_ms: number;
}

/** Posts `request` to a fresh session over all sources and waits for the turn to stop. */
export async function askOverSources(gw: EvalGateway, request: string, timeoutMs: number): Promise<Turn> {
  const started = performance.now();
  try {
    const session = await gw.createSession({ sources: 'all' });
    const view = await gw.waitTurn(session.session_id, { text: request }, timeoutMs);
    const latency_ms = Math.round(performance.now() - started);
    return { view, error: null, llm_calls: await modelCalls(gw, session.session_id), latency_ms };
  } catch (err) {
    const latency_ms = Math.round(performance.now() - started);
    return { view: null, error: err instanceof Error ? err.message : String(err), llm_calls: 0, latency_ms };
  }
}

/** Model calls of the session, from its trace (every LLM call any node made). */
async function modelCalls(gw: EvalGateway, sessionId: string): Promise<number> {
  const records = await gw.trace(sessionId);
  return records.reduce((n, r) => n + r.llm.length, 0);
}

/** Scores one turn: the combined rows against the gold rows, or the question, or the failure. */
export async function scoreTurn(item: CrossSourceItem, turn: Turn, gold: ResultDb): Promise<RequestResult> {
  const v = turn.view;
  const run = v?.sources_run ?? null;
  const base = {
    id: item.id,
    request: item.request,
    note: item.note ?? null,
    expect: item.expect,
    parts: run?.parts.map((p) => p.source) ?? [],
    part_sql: run?.parts.map((p) => `${p.source}: ${p.sql}`) ?? [],
    combine_sql: run?.combine_sql ?? null,
    answer: v?.answer?.text ?? null,
    llm_calls: turn.llm_calls,
    latency_ms: turn.latency_ms,
    one_database: null,
  };
  const question = v?.interrupt?.question ?? '';
  const asked_for_reason = item.expect === 'clarify' ? !!v?.interrupt && new RegExp(item.asks ?? '', 'i').test(question) : null; // prettier-ignore
  if (!v || v.status === 'failed' || v.status === 'running')
    return {
      ...base,
      asked_for_reason,
      verdict: 'failed',
      detail: turn.error ?? v?.error?.message ?? `turn ${v?.status}`,
    };
  if (v.interrupt) return { ...base, asked_for_reason, verdict: 'asked', detail: question || v.interrupt.type };
  if (!v.preview)
    return { ...base, asked_for_reason, verdict: 'failed', detail: 'the turn ended with no rows and no question' };
  if (!item.gold)
    return { ...base, asked_for_reason, verdict: 'wrong', detail: 'answered where a question was expected' };
  const { verdict, detail } = await againstGold(item.gold, item.ordered === true, v, gold);
  return { ...base, asked_for_reason, verdict, detail };
}

/**
 * The combined rows against the gold's: as a multiset unless the request asks for an order (the
 * gold's ORDER BY only makes it deterministic). The view keeps the first 50 combined rows, so a
 * longer result is judged on its row count and, when ordered, on the rows shown.
 */
async function againstGold(
  sql: string,
  ordered: boolean,
  v: SessionView,
  gold: ResultDb,
): Promise<{ verdict: 'match' | 'wrong'; detail: string }> {
  const expected = await gold.run(sql);
  const preview = v.preview;
  if (!preview) return { verdict: 'wrong', detail: 'no rows' };
  const total = v.sources_run?.combined_rows ?? preview.rows.length;
  if (total !== expected.rows.length)
    return { verdict: 'wrong', detail: `row count ${total}, gold has ${expected.rows.length}` };
  const shown = preview.rows.length;
  const cut = { columns: expected.columns, rows: expected.rows.slice(0, shown) };
  if (shown < total && !ordered)
    return { verdict: 'wrong', detail: `only ${shown} of ${total} unordered rows shown: not judged` };
  const m = compareResults(cut, { columns: preview.columns, rows: preview.rows }, ordered);
  return { verdict: m.match ? 'match' : 'wrong', detail: m.detail };
}

/**
 * The same request read by the same no-model path over one database holding all four tables
 * (`readOnce`, as the offline linker eval does), its SQL run on that database: what the reading
 * gives when nothing is split, so a miss the cross-source run shares with it is the linker's,
 * and one it does not share is the cross-source mechanism's.
 */
export async function readOnOneDatabase(item: CrossSourceItem, schema: LinkSchema, gold: ResultDb): Promise<OneDatabaseVerdict | null> {
  if (!item.gold) return null;
  const read = readOnce(item.request, schema);
  if (read.outcome === 'clarification') return 'asked';
  if (read.outcome === 'model' || !read.sql) return 'model';
  try {
    const [want, got] = [await gold.run(item.gold), await gold.run(read.sql)];
    return compareResults(want, got, item.ordered === true).match ? 'match' : 'wrong';
  } catch {
    return 'model';
  }
} // prettier-ignore

/** The figures of a run: the same measures as the plan-given run, plus model calls. */
export function summarize(results: readonly RequestResult[]): Record<string, string | number> {
  const answerable = results.filter((r) => r.expect === 'answer');
  const clarify = results.filter((r) => r.expect === 'clarify');
  const n = (rs: readonly RequestResult[], v: RequestVerdict) => rs.filter((r) => r.verdict === v).length;
  const ms = answerable.map((r) => r.latency_ms);
  return {
    items: results.length,
    answerable: answerable.length,
    execution_match: n(answerable, 'match'),
    accepted_but_wrong: n(answerable, 'wrong') + n(clarify, 'wrong'),
    failed: n(results, 'failed'),
    asked_when_expected: `${n(clarify, 'asked')}/${clarify.length}`,
    asked_when_not: `${n(answerable, 'asked')}/${answerable.length}`,
    split_into_two_sources: answerable.filter((r) => new Set(r.parts).size >= 2).length,
    p50_ms: percentile(ms, 50),
    p95_ms: percentile(ms, 95),
    model_calls: results.reduce((s, r) => s + r.llm_calls, 0),
    asked_for_expected_reason: `${clarify.filter((r) => r.asked_for_reason).length}/${clarify.length}`,
    one_database: oneDatabaseFigures(answerable),
  };
}

function oneDatabaseFigures(answerable: readonly RequestResult[]): string {
  const n = (v: OneDatabaseVerdict) => answerable.filter((r) => r.one_database === v).length;
  return `${n('match')} match, ${n('wrong')} wrong, ${n('asked')} asked, ${n('model')} to the model`;
}

/** The report: the summary table, then one line per item with what ran where. */
export function renderRequestsReport(title: string, results: readonly RequestResult[]): string {
  const s = summarize(results);
  const lines = [
    `## ${title}`,
    '',
    '| answerable | execution match | accepted but wrong | failed | clarification when expected (for the expected reason) / when not | split into both sources | p50 / p95 latency | model calls |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    `| ${s.answerable} | ${s.execution_match}/${s.answerable} | ${s.accepted_but_wrong} | ${s.failed} | ${s.asked_when_expected} (${s.asked_for_expected_reason}) / ${s.asked_when_not} | ${s.split_into_two_sources}/${s.answerable} | ${s.p50_ms} ms / ${s.p95_ms} ms | ${s.model_calls} |`,
    '',
    `The same answerable requests read on one database holding every table (no split, no model): ${s.one_database}.`,
    '',
    ...results.map(itemLine),
  ];
  return `${lines.join('\n')}\n`;
}

function itemLine(r: RequestResult): string {
  const where = r.parts.length ? ` [${r.parts.join('+')}]` : '';
  const note = r.note ? ` (${r.note})` : '';
  const one = r.one_database ? ` {one database: ${r.one_database}}` : '';
  const reason = r.asked_for_reason === false ? ' {not for the expected reason}' : '';
  return `- ${r.id} ${r.verdict}${where}${one}${reason} (${r.latency_ms} ms): ${r.request}${note} — ${r.detail.replace(/\s+/g, ' ')}`;
}
