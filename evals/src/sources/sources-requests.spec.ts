import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { SessionView } from '../gateway';
import { ResultDb } from '../results';
import type { CrossSourceItem } from './cross-source-set';
import { scoreTurn, summarize } from './sources-requests';

/** How a turn over sources is scored: rows against the gold's, questions by their reason. */
describe('scoring a turn over sources', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nl2p-sources-score-'));
  const file = path.join(dir, 'gold.duckdb');
  let gold: ResultDb;

  beforeAll(async () => {
    const db = await DuckDBInstance.create(file);
    const c = await db.connect();
    await c.run("CREATE TABLE t AS SELECT * FROM (VALUES ('a', 1), ('b', 2), ('c', 3)) v(site, n)");
    c.closeSync();
    db.closeSync();
    gold = new ResultDb(file);
  });

  afterAll(async () => {
    await gold.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const answerable: CrossSourceItem = { id: 'x', request: 'n per site', gold: 'SELECT site, n FROM t ORDER BY site', expect: 'answer' }; // prettier-ignore
  const view = (over: Partial<SessionView>): SessionView =>
    ({
      status: 'idle',
      interrupt: null,
      error: null,
      answer: { kind: 'message', text: 'ok' },
      sources_run: {
        parts: [
          { source: 'shop', sql: 'SELECT 1' },
          { source: 'crm', sql: 'SELECT 2' },
        ],
        combine_sql: 'SELECT …',
        combined_rows: 3,
      },
      preview: {
        columns: ['site', 'n'],
        rows: [
          ['c', 3],
          ['a', 1],
          ['b', 2],
        ],
        truncated: false,
      },
      ...over,
    }) as unknown as SessionView;
  const turn = (v: SessionView | null, error: string | null = null) => ({
    view: v,
    error,
    llm_calls: 0,
    latency_ms: 5,
  });

  it('matches the gold rows as a multiset unless the request asks for an order', async () => {
    const unordered = await scoreTurn(answerable, turn(view({})), gold);
    expect(unordered).toMatchObject({ verdict: 'match', parts: ['shop', 'crm'] });
    const ordered = await scoreTurn({ ...answerable, ordered: true }, turn(view({})), gold);
    expect(ordered.verdict).toBe('wrong');
  });

  it('counts other rows presented as the answer as wrong, by the combined row count first', async () => {
    const fewer = view({ preview: { columns: ['site', 'n'], rows: [['a', 1]], truncated: false } });
    const result = await scoreTurn(answerable, turn({ ...fewer, sources_run: { ...fewer.sources_run, combined_rows: 1 } } as SessionView), gold); // prettier-ignore
    expect(result).toMatchObject({ verdict: 'wrong', detail: 'row count 1, gold has 3' });
    const other = view({ preview: { columns: ['site', 'n'], rows: [['a', 1], ['b', 2], ['c', 4]], truncated: false } }); // prettier-ignore
    expect((await scoreTurn(answerable, turn(other), gold)).verdict).toBe('wrong');
  });

  it('tells a question asked for the expected reason from one asked for another', async () => {
    const item: CrossSourceItem = { id: 'c', request: 'how many customers', expect: 'clarify', asks: 'exists in 2 sources' }; // prettier-ignore
    const asked = (question: string) => turn(view({ interrupt: { type: 'need_clarification', question }, preview: null } as never)); // prettier-ignore
    const right = await scoreTurn(item, asked('The table customers exists in 2 sources (a, b); which one?'), gold);
    const other = await scoreTurn(item, asked('I could not read this request.'), gold);
    expect([right.verdict, right.asked_for_reason]).toEqual(['asked', true]);
    expect([other.verdict, other.asked_for_reason]).toEqual(['asked', false]);
    // An answer where a question was expected is an accepted wrong answer.
    expect((await scoreTurn(item, turn(view({})), gold)).verdict).toBe('wrong');
    const summary = summarize([right, other, await scoreTurn(answerable, turn(null, 'no gateway'), gold)]);
    expect(summary).toMatchObject({ asked_when_expected: '2/2', asked_for_expected_reason: '1/2', failed: 1 });
  });
});
