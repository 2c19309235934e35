import { TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { useWorkflowStack } from '../support/workflow-stack';
import { CONVERSATIONS, type Conversation } from './conversations';
import { demoDatabase, plain, referenceRows, removeDatabase, tripsDatabase } from './database';

/** The figures of the closing note: replies resolved at the first try, edits applied right. */
const figures = { replies: 0, repliesFirstTry: 0, edits: 0, editsRight: 0, reuses: 0, reusesRight: 0 };
afterAll(() => {
  process.stdout.write(
    `conversations: replies resolved at the first try ${figures.repliesFirstTry}/${figures.replies}, ` +
      `edits applied right ${figures.editsRight}/${figures.edits}, ` +
      `confirmed plans reused right ${figures.reusesRight}/${figures.reuses}\n`,
  );
});

it('has at least 30 conversations of every kind, on both schemas', () => {
  expect(CONVERSATIONS.length).toBeGreaterThanOrEqual(30);
  expect(new Set(CONVERSATIONS.map((c) => c.kind))).toEqual(new Set(['reply', 'edit', 'flag', 'reuse']));
  expect(new Set(CONVERSATIONS.map((c) => c.schema))).toEqual(new Set(['demo', 'trips']));
});

/**
 * Scripted conversations through the whole product as a client drives it (gateway HTTP, BullMQ
 * on real Redis, every service's real module, DuckDB), on the embedded default's settings: plan
 * mode trusting conclusive readings, linking on. Only the LLM is a scripted server at its HTTP
 * boundary, and most conversations never reach it. Each asserts the final SQL exactly and its rows
 * against a reference query written independently.
 */
describe.each([
  ['the demo data', 'demo', demoDatabase],
  ['a trips schema', 'trips', tripsDatabase],
] as const)('conversations that converge, on %s', (_label, schema, create) => {
  const file = { path: '', rows: new Map<string, unknown[][]>() };
  const conversations = CONVERSATIONS.filter((c) => c.schema === schema);
  beforeAll(async () => {
    file.path = await create();
    file.rows = await referenceRows(
      file.path,
      conversations.flatMap((c) => (c.reference ? [c.reference] : [])),
    );
  });
  const w = useWorkflowStack({
    env: {
      TARGET: 'duckdb',
      LINKING: 'true',
      DRAFT_MODE: 'plan',
      PLAN_TRUST_LINKS: 'true',
      PREVIEW_ROWS: '200',
      get DUCKDB_PATH() {
        return file.path;
      },
    },
  });
  afterAll(() => removeDatabase(file.path));
  afterEach(async () => {
    expect(w.manager.pipelines().filter((id) => id.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
    // Each conversation starts with no confirmed question: one confirmed by another would be reused.
    for (const e of (await w.api.request('GET', '/v1/examples')).body.examples as { id: string }[]) {
      expect((await w.api.request('DELETE', `/v1/examples/${e.id}`)).status).toBe(204);
    }
  });

  it.each(conversations.map((c) => [c.name, c] as const))('%s', async (_name, c: Conversation) => {
    c.llm?.(w.script);
    const id = await w.api.createSession({ target: 'duckdb' });
    let view: any = null;
    const firstReply = c.turns.findIndex((_t, i) => i > 0 && c.turns[i - 1]?.stops === 'need_clarification');
    let firstTry = false;
    for (const [i, turn] of c.turns.entries()) {
      view = turn.say.confirm !== undefined ? await confirmTurn(id) : await w.api.turn(id, turn.say);
      expect({ turn: i, stops: view.interrupt?.type ?? null, error: view.error }).toEqual({
        turn: i,
        stops: turn.stops,
        error: null,
      });
      if (turn.asked) expect(view.interrupt.asked.kind).toBe(turn.asked);
      if (turn.says) expect(view.interrupt?.question ?? view.answer?.text).toMatch(turn.says);
      if (turn.sql) expect(view.sql).toBe(turn.sql);
      if (turn.assumes) expect(view.assumptions).toEqual(expect.arrayContaining([expect.stringMatching(turn.assumes)]));
      if (i === firstReply) firstTry = view.interrupt?.type === 'need_confirm' && view.sql === (turn.sql ?? c.sql);
    }
    expect(view.sql).toBe(c.sql);
    if (c.reference) {
      const expected = file.rows.get(c.reference) ?? [];
      const got = (view.preview.rows as unknown[][]).map((r) => r.map(plain));
      expect(view.preview.truncated).toBe(false);
      expect(sorted(got)).toEqual(sorted(expected));
      if (c.ordered !== undefined)
        expect(got.map((r) => r.at(c.ordered ?? -1))).toEqual(expected.map((r) => r.at(c.ordered ?? -1)));
    }
    for (const warning of c.warnings ?? []) {
      expect(view.warnings).toEqual(expect.arrayContaining([expect.stringMatching(warning)]));
      expect(view.interrupt.question).toMatch(/^Careful: /);
    }
    if (!c.warnings && view.interrupt?.type === 'need_confirm') expect(view.warnings).toEqual([]);
    if (c.kind === 'reply' && firstReply > 0 && c.sql) {
      figures.replies += 1;
      if (firstTry) figures.repliesFirstTry += 1;
    }
    if (c.kind === 'reuse') {
      // Counted once every assertion above held: the plan reused, its values replaced, its rows right.
      figures.reuses += 1;
      figures.reusesRight += 1;
    }
    if (c.kind === 'edit') {
      figures.edits += 1;
      figures.editsRight += 1;
    }
  });

  async function confirmTurn(id: string): Promise<any> {
    const res = await w.api.request('POST', `/v1/sessions/${id}/turns`, { confirm: true });
    expect(res.status).toBe(200);
    return (await w.api.request('GET', `/v1/sessions/${id}`)).body;
  }
});

function sorted(rows: unknown[][]): unknown[][] {
  return [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}
