import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { ensureDemoDatabase } from '@nl2p/engine';
import { ScriptedLlm } from '@nl2p/testing';
import { GatewayClient } from '../support/client';
import { LlmScript } from '../support/llm-script';
import { startStack, type Stack } from '../support/stack';

/**
 * The model as a chooser (MODEL_CHOOSES, issue 23 item 6) through the whole workflow: a value
 * found in two columns (`JFK` as a departure and an arrival airport) is a close call; with the
 * chooser on, the drafter puts it to the model under an enumeration of the two columns and the
 * pick comes back as an assumption of the answer; off, the person is asked as before. DuckDB is
 * real (the demo data plus a flights table); the LLM is scripted at its HTTP boundary.
 */
describe('the model as a chooser among close candidates, through the whole workflow', () => {
  const llm = new ScriptedLlm();
  const stacks: Stack[] = [];
  const files: string[] = [];
  let llmUrl: string;

  /** The demo DuckDB with flights whose airports are values of both airport columns. */
  async function databaseWithFlights(): Promise<string> {
    const file = path.join(os.tmpdir(), `nl2p-chooser-${randomUUID().slice(0, 8)}.duckdb`);
    files.push(file);
    await ensureDemoDatabase(file);
    const db = await DuckDBInstance.create(file);
    try {
      const conn = await db.connect();
      await conn.run(
        `CREATE TABLE flights (flight_id INTEGER, from_airport VARCHAR, to_airport VARCHAR, airline VARCHAR)`,
      );
      await conn.run(
        `INSERT INTO flights VALUES (1, 'JFK', 'LAX', 'AA'), (2, 'LAX', 'JFK', 'UA'), (3, 'ORD', 'JFK', 'AA'), (4, 'JFK', 'ORD', 'UA')`,
      );
      conn.closeSync();
    } finally {
      db.closeSync();
    }
    return file;
  }

  /** Plan mode trusting conclusive readings (the embedded model's default), or a server's `auto`. */
  async function gateway(modelChooses: boolean, mode: 'plan' | 'auto' = 'plan'): Promise<GatewayClient> {
    const env = {
      TARGET: 'duckdb',
      LINKING: 'true',
      DRAFT_MODE: mode,
      PLAN_TRUST_LINKS: String(mode === 'plan'),
      MODEL_CHOOSES: String(modelChooses),
      // A server that decodes under a JSON schema is given the enumeration itself.
      LLM_STRUCTURED_OUTPUT: 'json_schema',
      DUCKDB_PATH: await databaseWithFlights(),
    };
    const stack = await startStack({ llmUrl, env });
    stacks.push(stack);
    return new GatewayClient(stack.gatewayUrl);
  }

  /** The chooser's calls: the only prompts that carry a close call's candidates. */
  const chooserCalls = () =>
    llm.requests.filter((r) => r.messages.some((m) => m.content.includes('Candidates: flights.from_airport')));

  beforeAll(async () => {
    llmUrl = await llm.start();
  });
  afterAll(async () => {
    await Promise.all(stacks.map((s) => s.close()));
    await llm.stop();
    for (const f of files) rmSync(f, { force: true });
  });
  beforeEach(() => llm.reset());

  const REQUEST = 'how many flights are there for JFK';

  it('on: the model picks among the enumerated columns, and the pick is an assumption of the answer', async () => {
    const api = await gateway(true);
    llm.when('Candidates: flights.from_airport; flights.to_airport', {
      content: JSON.stringify({ choice: 'flights.to_airport' }),
    });
    const id = await api.createSession({ target: 'duckdb' });
    const view = await api.turn(id, { text: REQUEST });

    expect(view.interrupt.type).toBe('need_confirm');
    expect(view.sql).toMatch(/to_airport = 'JFK'/);
    expect(view.sql).not.toMatch(/from_airport/);
    expect(view.preview.rows).toEqual([[2]]);
    expect(view.assumptions.join('\n')).toMatch(/"JFK" is read as to_airport = 'JFK', the model’s choice/);
    // One model call, the chooser's, decoded under the two columns or asking: nothing else.
    expect(llm.requests).toHaveLength(1);
    expect(chooserCalls()).toHaveLength(1);
    const format = JSON.stringify(llm.requests[0]?.response_format);
    expect(format).toContain('"enum":["ask the person","flights.from_airport","flights.to_airport"]');
  });

  it('on: when the model says the request does not tell, the person is asked as before', async () => {
    const api = await gateway(true);
    llm.when('Candidates: flights.from_airport; flights.to_airport', {
      content: JSON.stringify({ choice: 'ask the person' }),
    });
    const id = await api.createSession({ target: 'duckdb' });
    const view = await api.turn(id, { text: REQUEST });

    expect(view.interrupt.type).toBe('need_clarification');
    expect(view.interrupt.question).toMatch(/'JFK' could mean from_airport or to_airport/);
    expect(view.sql).toBeNull();
    expect(chooserCalls()).toHaveLength(1);
  });

  it('off: the close call is a question for the person, and no model is asked', async () => {
    const api = await gateway(false);
    const id = await api.createSession({ target: 'duckdb' });
    const view = await api.turn(id, { text: REQUEST });

    expect(view.interrupt.type).toBe('need_clarification');
    expect(view.interrupt.question).toMatch(/'JFK' could mean from_airport or to_airport/);
    expect(view.interrupt.choices).toEqual(['flights.from_airport', 'flights.to_airport']);
    expect(llm.requests).toEqual([]);

    // The person's pick settles it as the model's would.
    const answered = await api.turn(id, { text: '2' });
    expect(answered.interrupt.type).toBe('need_confirm');
    expect(answered.sql).toMatch(/to_airport = 'JFK'/);
    expect(answered.assumptions.join('\n')).toMatch(/"JFK" is read as to_airport = 'JFK', as you answered/);
    expect(llm.requests).toEqual([]);
  });

  it('auto (a server model): the model drafts with the reading as its hint, the close call named with its candidates', async () => {
    const api = await gateway(false, 'auto');
    const script = new LlmScript(llm);
    script.plan({
      table: 'flights',
      columns: [],
      aggregates: [{ fn: 'count', of: '*', distinct: false }],
      filters: [{ column: 'from_airport', op: '=', value: 'JFK' }],
      group_by: [],
      time: null,
      order: null,
      limit: null,
      beyond_plan: false,
      question: null,
    });
    const id = await api.createSession({ target: 'duckdb' });
    const view = await api.turn(id, { text: REQUEST });

    expect(view.interrupt.type).toBe('need_confirm');
    expect(view.sql).toMatch(/from_airport = 'JFK'/);
    const [call] = script.callsOf('plan');
    const prompt = (call?.messages ?? []).map((m) => m.content).join('\n');
    // The reading's plan, its tables and its close call, in the data's names.
    expect(prompt).toMatch(/Plan found from the request's words[^\n]*\n\{"table":"flights"/);
    expect(prompt).toContain('Tables the words point at, best first: flights');
    expect(prompt).toContain("'JFK' fits from_airport and to_airport equally");
    expect(script.calls.map((c) => c.kind)).toEqual(['plan']);
  });
});
