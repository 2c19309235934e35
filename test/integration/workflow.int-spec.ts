import { TMP_PIPELINE_PREFIX, tmpPipelineId } from '@nl2p/envelope';
import { useWorkflowStack } from '../support/workflow-stack';

const GOOD_SQL =
  "SELECT device_id, avg(temperature) AS avg_temp FROM sensor_stream WHERE temperature > 30 GROUP BY device_id, tumblingwindow('ss', 10)";
const REQUEST = 'average temperature per device every 10 seconds, only above 30';
const nl2sql = (stream: string | null = 'sensor_stream') => ({ intent: 'nl2sql' as const, stream, question: null });

describe('workflow over BullMQ (all six services, real Redis)', () => {
  const t = useWorkflowStack({ env: { MAX_ATTEMPTS: '3' } });
  const { manager } = t;

  afterEach(() => {
    // The promise of ARCHITECTURE §1: never garbage in the engine, whatever happened.
    expect(manager.pipelines().filter((id) => id.startsWith(TMP_PIPELINE_PREFIX))).toEqual([]);
  });

  const creates = () => manager.requests.filter((r) => r.method === 'POST' && r.rawPath === '/pipelines');

  it('happy path: request → SQL → validated → explained → need_confirm; confirm ends the turn', async () => {
    t.script.route(nl2sql()).draft(GOOD_SQL);
    const id = await t.api.createSession();
    const view = await t.api.turn(id, { text: REQUEST });

    expect(view.status).toBe('waiting');
    expect(view.interrupt.type).toBe('need_confirm');
    expect(view.sql).toBe(GOOD_SQL);
    expect(view.explain).toContain('Logical Plan Explain:');
    expect(view.explain).toContain('Physical Plan Explain:');
    // The plan shown is that of the pipeline the person applies: their sink, empty batches skipped.
    expect(view.explain).toContain('connector=mqtt, encoder=json, output.omit_if_empty=true');
    expect(view.pipeline_request).toMatchObject({ id: 'REPLACE_ME', sql: GOOD_SQL, sinks: [{ type: 'mqtt' }] });
    expect(JSON.parse(creates()[0]?.body ?? '')).toEqual({ ...view.pipeline_request, id: expect.any(String) });
    expect(view.metrics.llm_calls).toBe(2);
    expect(view.metrics.llm_tokens_in).toBeGreaterThan(0);
    expect(view.metrics.engine_calls).toBeGreaterThan(0);
    expect(creates()).toHaveLength(1);
    // The draft was grounded in the real schema and catalog, not invented.
    const draftPrompt = JSON.stringify(t.script.callsOf('draft')[0].messages);
    expect(draftPrompt).toContain('temperature float64');
    expect(draftPrompt).toContain('tumblingwindow');

    const done = await t.api.turn(id, { confirm: true });
    expect(done.status).toBe('idle');
    expect(done.interrupt).toBeNull();
    expect(done.pipeline_request.sql).toBe(GOOD_SQL);
  });

  it('repair: the engine rejects an unknown column, the reviser gets its error, the second SQL passes', async () => {
    // Schema drift: the stream loses `humidity` after the session read its schema, so the local
    // check passes and the engine itself rejects the column with its own error text.
    const drifted = GOOD_SQL.replace(
      'avg(temperature) AS avg_temp',
      'avg(temperature) AS avg_temp, max(humidity) AS max_hum',
    );
    t.script
      .route(nl2sql())
      .draft(() => {
        manager.addStream('sensor_stream', [
          { name: 'device_id', data_type: 'string' },
          { name: 'temperature', data_type: 'float64' },
          { name: 'ts', data_type: 'int64' },
        ]);
        return drifted;
      })
      .revise({ sql: GOOD_SQL, questions: [], assumptions: [] });
    const id = await t.api.createSession();
    const view = await t.api.turn(id, { text: REQUEST });

    expect(view.interrupt?.type).toBe('need_confirm');
    expect(view.sql).toBe(GOOD_SQL);
    expect(view.attempts.attempt).toBe(2);
    expect(view.attempts.failures).toEqual([
      expect.objectContaining({
        stage: 'engine',
        attempt: 1,
        sql: drifted,
        error: expect.stringContaining("Column not found: No schema bindings available for identifier 'humidity"),
      }),
    ]);
    const revisePrompt = JSON.stringify(t.script.callsOf('revise')[0].messages);
    expect(revisePrompt).toContain("No schema bindings available for identifier 'humidity");
    expect(creates()).toHaveLength(2);
    // Both temp ids carry the deployment, session, turn and attempt.
    expect(creates().map((r) => JSON.parse(r.body).id)).toEqual([
      tmpPipelineId(id, 1, 1, t.stack.config.deploymentId),
      tmpPipelineId(id, 1, 2, t.stack.config.deploymentId),
    ]);
  });

  it('a refused sink: the record the failed create kept is deleted, the SQL is judged with a nop sink, the person is told', async () => {
    manager.failAfterStoreNextCreate('mqtt sink requires broker_url');
    t.script.route(nl2sql()).draft(GOOD_SQL);
    const id = await t.api.createSession();
    const view = await t.api.turn(id, { text: REQUEST });
    expect(view.interrupt?.type).toBe('need_confirm');
    // Not an SQL failure: no repair was attempted and no attempt was spent.
    expect(view.attempts.failures).toEqual([]);
    expect(t.script.callsOf('revise')).toHaveLength(0);
    expect(view.assumptions).toContainEqual(
      expect.stringContaining('refused the sink settings (mqtt sink requires broker_url)'),
    );
    expect(view.explain).toContain('connector=nop');
    const tmpId = tmpPipelineId(id, 1, 1, t.stack.config.deploymentId);
    expect(manager.requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual(
      expect.arrayContaining(['POST /pipelines', `DELETE /pipelines/${tmpId}`]),
    );
    expect(creates().map((r) => JSON.parse(r.body).sinks[0].type)).toEqual(['mqtt', 'nop']);
  });

  it('local prevalidation catches an invented column before any engine call', async () => {
    t.script
      .route(nl2sql())
      .draft("SELECT device_id, avg(temp_celsius) FROM sensor_stream GROUP BY device_id, tumblingwindow('ss', 10)")
      .revise({ sql: GOOD_SQL, questions: [], assumptions: [] });
    const id = await t.api.createSession();
    const view = await t.api.turn(id, { text: REQUEST });

    expect(view.interrupt?.type).toBe('need_confirm');
    expect(view.attempts.failures).toHaveLength(1);
    expect(view.attempts.failures[0].stage).toBe('local');
    expect(view.attempts.failures[0].error).toContain('temp_celsius');
    // Only the good SQL ever reached the engine.
    expect(creates()).toHaveLength(1);
    expect(JSON.parse(creates()[0].body).sql).toBe(GOOD_SQL);
  });

  it('attempts exhausted → give_up explains each failed attempt and lists the real column names', async () => {
    const unknownFn = (n: number) =>
      `failed to create pipeline p${n}: pipeline build error: Failed to compile expression: Unsupported expression: Unknown function: 'frobnicate'`;
    manager.rejectNextCreate(400, unknownFn(1));
    manager.rejectNextCreate(400, unknownFn(2));
    manager.rejectNextCreate(400, unknownFn(3));
    const sql = (n: number) =>
      `SELECT device_id, max(temperature) + ${n} AS m FROM sensor_stream GROUP BY device_id, countwindow(5)`;
    t.script
      .route(nl2sql())
      .draft(sql(1))
      .revise({ sql: sql(2), questions: [], assumptions: [] }, { sql: sql(3), questions: [], assumptions: [] });
    const id = await t.api.createSession();
    const view = await t.api.turn(id, { text: 'max temperature per device every 5 readings, shifted' });

    expect(view.status).toBe('waiting');
    expect(view.interrupt.type).toBe('need_clarification');
    expect(view.attempts.failures).toHaveLength(3);
    for (const n of [1, 2, 3]) {
      expect(view.interrupt.question).toContain(`attempt ${n}`);
      expect(view.interrupt.question).toContain(unknownFn(n));
    }
    expect(view.interrupt.question).toContain('device_id, temperature, humidity, ts');
    expect(t.script.callsOf('revise')).toHaveLength(2);
    expect(creates()).toHaveLength(3);
  });

  it('no stream known → need_stream with the real names and no draft; the answer resumes the original request', async () => {
    t.script.route(nl2sql(null)).draft(GOOD_SQL);
    const id = await t.api.createSession();
    const view = await t.api.turn(id, { text: REQUEST });

    expect(view.interrupt.type).toBe('need_stream');
    expect(view.interrupt.choices).toEqual(['sensor_stream', 'vehicle']);
    expect(view.sql).toBeNull();
    expect(t.script.callsOf('draft')).toHaveLength(0);

    const resumed = await t.api.turn(id, { stream: 'sensor_stream' });
    expect(resumed.interrupt?.type).toBe('need_confirm');
    expect(resumed.active_stream).toBe('sensor_stream');
    expect(resumed.request).toBe(REQUEST);
    expect(JSON.stringify(t.script.callsOf('draft')[0].messages)).toContain(REQUEST);
    expect(t.script.callsOf('router')).toHaveLength(1);
  });

  it('an unknown stream answer is refused with 400 and the question stays', async () => {
    t.script.route(nl2sql(null));
    const id = await t.api.createSession();
    await t.api.turn(id, { text: REQUEST });
    const res = await t.api.request('POST', `/v1/sessions/${id}/turns`, { stream: 'no_such_stream' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("unknown stream 'no_such_stream'");
    const view = (await t.api.request('GET', `/v1/sessions/${id}`)).body;
    expect(view.interrupt.type).toBe('need_stream');
  });

  it("the drafter asks a question → need_clarification shows it; the answer goes back to the model beside its question, the request's text stays", async () => {
    t.script.route(nl2sql()).draft('QUESTION: Which temperature threshold do you mean, in Celsius?').draft(GOOD_SQL);
    const id = await t.api.createSession();
    const view = await t.api.turn(id, { text: 'alert when it is too hot' });

    expect(view.interrupt).toEqual({
      type: 'need_clarification',
      question: 'Which temperature threshold do you mean, in Celsius?',
      choices: null,
      asked: { kind: 'open', question: 'Which temperature threshold do you mean, in Celsius?' },
    });
    expect(creates()).toHaveLength(0);

    const answered = await t.api.turn(id, { text: 'above 30 degrees' });
    expect(answered.interrupt?.type).toBe('need_confirm');
    expect(answered.request).toBe('alert when it is too hot');
    const prompt = JSON.stringify(t.script.callsOf('draft')[1].messages);
    expect(prompt).toContain('You asked: Which temperature threshold do you mean, in Celsius?');
    expect(prompt).toContain('<user_answer>\\nabove 30 degrees\\n</user_answer>');
    // No second routing: the intent the request had stays.
    expect(t.script.callsOf('router')).toHaveLength(1);
  });

  it('feedback at need_confirm → revision with a fresh budget; a new request at need_confirm starts over', async () => {
    const revised = GOOD_SQL.replace('> 30', '> 35');
    t.script.route(nl2sql()).draft(GOOD_SQL).revise({ sql: revised, questions: [], assumptions: [] });
    const id = await t.api.createSession();
    await t.api.turn(id, { text: REQUEST });

    const view = await t.api.turn(id, { feedback: 'use 35 as the threshold' });
    expect(view.interrupt?.type).toBe('need_confirm');
    expect(view.sql).toBe(revised);
    expect(view.attempts).toMatchObject({ attempt: 1, failures: [] });
    const revisePrompt = JSON.stringify(t.script.callsOf('revise')[0].messages);
    expect(revisePrompt).toContain('use 35 as the threshold');
    expect(revisePrompt).toContain(GOOD_SQL);

    t.script.route({ intent: 'list_streams', stream: null, question: null });
    const fresh = await t.api.turn(id, { text: 'which streams are there?' });
    expect(fresh.status).toBe('idle');
    expect(fresh.answer.kind).toBe('streams');
    expect(fresh.answer.text).toContain('sensor_stream');
    expect(fresh.sql).toBeNull();
    expect(t.script.callsOf('router')).toHaveLength(2);
  });

  it('describe_stream answers with the schema and makes the stream active', async () => {
    t.script.route({ intent: 'describe_stream', stream: 'vehicle', question: null });
    const id = await t.api.createSession();
    const view = await t.api.turn(id, { text: 'what does vehicle look like?' });
    expect(view.status).toBe('idle');
    expect(view.answer.kind).toBe('schema');
    expect(view.answer.text).toContain('speed int64');
    expect(view.active_stream).toBe('vehicle');
  });

  it('a second turn while one runs → 409; a malformed turn body → 400 naming the field', async () => {
    t.script.route(nl2sql()).draft({ content: GOOD_SQL, delayMs: 800 });
    const id = await t.api.createSession();
    const first = await t.api.request('POST', `/v1/sessions/${id}/turns`, { text: REQUEST });
    expect(first.status).toBe(202);
    const second = await t.api.request('POST', `/v1/sessions/${id}/turns`, { text: 'another request' });
    expect(second.status).toBe(409);
    expect(second.body.message).toContain('already running');

    const bad = await t.api.request('POST', `/v1/sessions/${id}/turns`, { text: 42 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.message)).toContain('text must be a string');
    const unknown = await t.api.request('POST', `/v1/sessions/${id}/turns`, { txet: 'typo' });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body.message)).toContain('property txet should not exist');
    const notJson = await t.api.request('POST', `/v1/sessions/${id}/turns`, '{"text": ');
    expect(notJson.status).toBe(400);

    // Let the first turn finish so nothing is left running.
    const deadline = Date.now() + 10_000;
    let view = (await t.api.request('GET', `/v1/sessions/${id}`)).body;
    while (view.status === 'running' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      view = (await t.api.request('GET', `/v1/sessions/${id}`)).body;
    }
    expect(view.interrupt?.type).toBe('need_confirm');
  });

  it('the seed endpoint POST /nl2pipeline/turn creates a session when absent and waits for the result', async () => {
    t.script.route(nl2sql()).draft(GOOD_SQL);
    const res = await t.api.request('POST', '/nl2pipeline/turn', { text: REQUEST });
    expect(res.status).toBe(200);
    expect(res.body.session_id).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body.interrupt.type).toBe('need_confirm');
    const confirm = await t.api.request('POST', '/nl2pipeline/turn', {
      session_id: res.body.session_id,
      confirm: true,
    });
    expect(confirm.body.status).toBe('idle');
  });

  it('unknown sessions are 404 and the trace lists every node of a turn', async () => {
    expect((await t.api.request('GET', '/v1/sessions/0123456789abcdef0123456789abcdef')).status).toBe(404);
    expect((await t.api.request('GET', '/v1/sessions/not-an-id')).status).toBe(404);

    t.script.route(nl2sql()).draft(GOOD_SQL);
    const id = await t.api.createSession();
    await t.api.turn(id, { text: REQUEST });
    const trace = (await t.api.request('GET', `/v1/sessions/${id}/trace`)).body;
    expect(trace.records.map((r: { node: string }) => r.node)).toEqual([
      'init_session',
      'link',
      'route_intent',
      'ensure_active_stream',
      'draft_sql',
      'prevalidate',
      'validate',
      'explain',
      'cleanup',
      'confirm',
    ]);
    const draft = trace.records.find((r: { node: string }) => r.node === 'draft_sql');
    expect(draft.llm[0]).toMatchObject({ model: 'scripted-preview' });
    const validate = trace.records.find((r: { node: string }) => r.node === 'validate');
    expect(validate.engine).toEqual(
      expect.arrayContaining([expect.objectContaining({ method: 'POST', route: '/pipelines', status: 201 })]),
    );
  });
});
