import { TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { useWorkflowStack } from '../support/workflow-stack';

const GOOD_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream GROUP BY device_id, tumblingwindow('ss', 10)";
const nl2sql = { intent: 'nl2sql' as const, stream: 'sensor_stream', question: null };

/**
 * Issue 15's stale view: after feedback at need_confirm, nothing the engine did not accept in
 * that turn may be shown as its plan or pipeline request, whichever way the turn ends.
 */
describe('a feedback turn that ends without accepted SQL shows no earlier plan', () => {
  const t = useWorkflowStack({ env: { MAX_ATTEMPTS: '2' } });
  const { manager } = t;

  afterEach(() => {
    expect(manager.pipelines().filter((id) => id.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
  });

  async function confirmedDraft(): Promise<string> {
    t.script.route(nl2sql).draft(GOOD_SQL);
    const id = await t.api.createSession();
    const first = await t.api.turn(id, { text: 'average temperature per device every 10 seconds' });
    expect(first.interrupt.type).toBe('need_confirm');
    expect(first.pipeline_request).not.toBeNull();
    return id;
  }

  it('the reviser asks a question', async () => {
    const id = await confirmedDraft();
    t.script.revise({ sql: null, questions: ['Which threshold do you mean?'], assumptions: [] });
    const view = await t.api.turn(id, { feedback: 'only the hot ones' });

    expect(view.interrupt).toMatchObject({ type: 'need_clarification', question: 'Which threshold do you mean?' });
    expect({ explain: view.explain, pipeline_request: view.pipeline_request }).toEqual({
      explain: null,
      pipeline_request: null,
    });
  });

  it('no revision passes and the turn gives up', async () => {
    const id = await confirmedDraft();
    const bad = { sql: 'SELECT device_id, avg(no_such_column) FROM sensor_stream', questions: [], assumptions: [] };
    t.script.revise(bad, bad);
    const view = await t.api.turn(id, { feedback: 'use the pressure instead' });

    expect(view.interrupt.type).toBe('need_clarification');
    expect(view.interrupt.question).toMatch(/could not produce SQL/);
    expect({ explain: view.explain, pipeline_request: view.pipeline_request }).toEqual({
      explain: null,
      pipeline_request: null,
    });
  });
});
