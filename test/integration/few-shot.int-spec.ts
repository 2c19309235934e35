import type { ScriptedRequest } from '@nl2p/testing';
import { useWorkflowStack } from '../support/workflow-stack';

const FIRST = 'average temperature per device, only above 30';
const FIRST_SQL =
  'SELECT device_id, avg(temperature) AS avg_temperature FROM sensor_readings WHERE temperature > 30 GROUP BY device_id';
const SECOND_SQL = 'SELECT device_id, max(temperature) AS max_temperature FROM sensor_readings GROUP BY device_id';

/**
 * A server model (an OpenAI-compatible endpoint: the scripted LLM over HTTP) drafting free SQL
 * gets the tenant's closest confirmed questions with their SQL in the request body it is sent;
 * real gateway, Redis, BullMQ workers and DuckDB.
 */
describe('few-shot examples from confirmed questions, for a server model', () => {
  const t = useWorkflowStack({ duckdb: true, env: { TARGET: 'duckdb', LINKING: 'false', DRAFT_MODE: 'sql' } });

  async function ask(text: string) {
    const id = await t.api.createSession({ target: 'duckdb' });
    return { id, view: await t.api.turn(id, { text }) };
  }
  const userOf = (body: ScriptedRequest) => body.messages.find((m) => m.role === 'user')?.content ?? '';

  it('the drafter’s request carries the confirmed question and its SQL once one is confirmed, and none before', async () => {
    const route = { intent: 'nl2sql' as const, stream: 'sensor_readings', question: null };
    t.script.route(route, route).draft(FIRST_SQL, SECOND_SQL);

    const first = await ask(FIRST);
    expect(first.view).toMatchObject({ sql: FIRST_SQL, interrupt: { type: 'need_confirm' } });
    const confirmed = await t.api.request('POST', `/v1/sessions/${first.id}/turns`, { confirm: true });
    expect(confirmed.status).toBe(200);

    const second = await ask('highest temperature per device');
    expect(second.view.sql).toBe(SECOND_SQL);

    const [before, after] = t.script.callsOf('draft').map(userOf);
    expect(before).not.toContain('Confirmed SQL');
    expect(after).toContain(`<example_question>\n${FIRST}\n</example_question>\nConfirmed SQL: ${FIRST_SQL}`);
    expect(after).toContain('<user_request>\nhighest temperature per device\n</user_request>');
  });
});
