import { ScriptedLlm, scriptedTokenCount } from '@nl2p/testing';
import { z } from 'zod';
import { OpenAiLlmClient, type OpenAiLlmClientOptions } from './openai-llm-client';
import { LlmError, type LlmMessage } from '../port';
import { reviseSchemaFor, routerSchemaFor } from '../structured/catalog-schemas';
import { reviseGrammarFor } from '../structured/sql-grammar';

type Json = Record<string, unknown>;

const API_KEY = 'sk-test-secret-key-1234';
const MODELS = { router: 'router-model', preview: 'preview-model', reasoning: 'reasoning-model' };

const Intent = z.object({ intent: z.enum(['create', 'modify', 'question']), tables: z.array(z.string()) });

const messages: LlmMessage[] = [
  { role: 'system', content: 'You classify requests. Answer in JSON.' },
  { role: 'user', content: 'count orders per minute' },
];
const promptChars = messages.reduce((sum, m) => sum + m.content.length, 0);

/** The error a promise rejects with, failing the test if it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<LlmError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(LlmError);
  return outcome as LlmError;
}

describe('OpenAiLlmClient over HTTP (ScriptedLlm)', () => {
  const llm = new ScriptedLlm();
  let baseUrl: string;

  const client = (overrides: Partial<OpenAiLlmClientOptions> = {}) =>
    new OpenAiLlmClient({ baseUrl, apiKey: API_KEY, models: MODELS, timeoutMs: 2_000, maxRetries: 2, ...overrides });

  beforeAll(async () => {
    baseUrl = await llm.start();
  });
  afterEach(() => llm.reset());
  afterAll(() => llm.stop());

  it('streams text as several ordered deltas and records usage', async () => {
    const answer = 'SELECT window_start, COUNT(*) AS orders FROM orders GROUP BY TUMBLE(ts, 1 minute)';
    llm.enqueue({ content: answer });
    const deltas: string[] = [];

    const result = await client().text({ role: 'preview', messages, onDelta: (d) => deltas.push(d) });

    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(answer);
    expect(deltas[0]).toBe('SELECT ');
    expect(result.text).toBe(answer);
    expect(result.usage).toEqual({
      model: 'preview-model',
      input_tokens: scriptedTokenCount(promptChars),
      output_tokens: scriptedTokenCount(answer.length),
      latency_ms: expect.any(Number),
      finish_reason: 'stop',
      retries: 0,
    });
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]).toMatchObject({ stream: true, includeUsage: true, temperature: 0 });
    expect(llm.requests[0]?.headers['authorization']).toBe(`Bearer ${API_KEY}`);
  });

  it('returns non-streamed text and estimates tokens when the server reports no usage', async () => {
    llm.enqueue({ content: 'twelve chars', omitUsage: true, finishReason: 'length', model: 'served-model' });

    const result = await client().text({ role: 'router', messages });

    expect(result.text).toBe('twelve chars');
    expect(result.usage).toMatchObject({
      model: 'served-model',
      input_tokens: Math.ceil(promptChars / 4),
      output_tokens: 3,
      finish_reason: 'length',
      retries: 0,
    });
    expect(llm.requests[0]?.stream).toBe(false);
  });

  it('parses fenced JSON and validates it with the schema', async () => {
    llm.enqueue({ content: 'Here it is:\n```json\n{"intent": "create", "tables": ["orders"]}\n```' });

    const result = await client().json({ role: 'router', messages, schema: Intent, schemaName: 'intent' });

    expect(result.value).toEqual({ intent: 'create', tables: ['orders'] });
    expect(result.usage.retries).toBe(0);
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]?.response_format).toEqual({ type: 'json_object' });
  });

  it('makes one corrective call after an unparseable answer and sums the usage', async () => {
    const bad = 'I think the intent is to create something.';
    const good = '{"intent": "create", "tables": []}';
    llm.enqueue({ content: bad }, { content: good });

    const result = await client().json({ role: 'router', messages, schema: Intent, schemaName: 'intent' });

    expect(result.value).toEqual({ intent: 'create', tables: [] });
    expect(result.text).toBe(good);
    expect(llm.requests).toHaveLength(2);
    const followUp = llm.requests[1].messages;
    expect(followUp.slice(0, messages.length)).toEqual(messages);
    expect(followUp[messages.length]).toEqual({ role: 'assistant', content: bad });
    expect(followUp[messages.length + 1]?.role).toBe('user');
    expect(followUp[messages.length + 1]?.content).toMatch(/not valid JSON.*no JSON object/s);
    const secondPromptChars = followUp.reduce((sum, m) => sum + m.content.length, 0);
    expect(result.usage.input_tokens).toBe(scriptedTokenCount(promptChars) + scriptedTokenCount(secondPromptChars));
    expect(result.usage.output_tokens).toBe(scriptedTokenCount(bad.length) + scriptedTokenCount(good.length));
  });

  it('tells the model which schema rule failed, and gives up after the corrective call', async () => {
    llm.enqueue({ content: '{"intent": "delete", "tables": []}' }, { content: '{"intent": "create"}' });

    const error = await rejectionOf(client().json({ role: 'router', messages, schema: Intent, schemaName: 'intent' }));

    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/"intent".*corrective.*tables/s);
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1]?.messages.at(-1)?.content).toMatch(/does not match the required schema[\s\S]*intent/);
  });

  it('sends a strict json_schema response_format when configured', async () => {
    llm.enqueue({ content: '{"intent": "question", "tables": ["a"]}' });

    await client({ structuredOutput: 'json_schema' }).json({
      role: 'reasoning',
      messages,
      schema: Intent,
      schemaName: 'intent',
    });

    expect(llm.requests[0]?.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'intent', schema: z.toJSONSchema(Intent), strict: true },
    });
  });

  it('sends the catalog-enumerated schemas as strict json_schema (every field required, no defaults) and ignores a grammar', async () => {
    const vocabulary = { streams: ['sensor_stream', 'vehicle'], columns: ['speed'], functions: ['avg'] };
    llm.enqueue(
      { content: '{"intent": "nl2sql", "stream": "vehicle", "question": null}' },
      { content: '{"sql": "SELECT avg(speed) FROM vehicle", "questions": [], "assumptions": []}' },
    );
    const remote = client({ structuredOutput: 'json_schema' });

    const routed = await remote.json({
      role: 'router',
      messages,
      schema: routerSchemaFor(vocabulary.streams),
      schemaName: 'route_intent',
      grammar: 'root ::= "ignored"',
    });
    const revised = await remote.json({
      role: 'reasoning',
      messages,
      schema: reviseSchemaFor(vocabulary),
      schemaName: 'revise_sql',
      grammar: reviseGrammarFor(vocabulary),
    });

    expect(routed.value).toEqual({ intent: 'nl2sql', stream: 'vehicle', question: null });
    expect(revised.value.sql).toBe('SELECT avg(speed) FROM vehicle');
    const [router, revise] = llm.requests.map((r) => r.response_format as { json_schema: { schema: Json } });
    expect(router.json_schema.schema.required).toEqual(['intent', 'stream', 'question']);
    expect(JSON.stringify(router.json_schema.schema)).toContain('"enum":["sensor_stream","vehicle"]');
    expect(revise.json_schema.schema.required).toEqual(['sql', 'questions', 'assumptions']);
    for (const { json_schema } of [router, revise]) {
      expect(json_schema.schema.additionalProperties).toBe(false);
      expect(JSON.stringify(json_schema.schema)).not.toContain('"default"');
    }
    // The grammar is the local provider's; nothing of it goes over the wire.
    expect(JSON.stringify(llm.requests)).not.toContain('ignored');
    expect(JSON.stringify(llm.requests)).not.toContain('sql-select');
  });

  it('retries 429s that carry retry-after: 0 and counts the retries', async () => {
    const rateLimited = { status: 429, headers: { 'retry-after': '0' } };
    llm.enqueue(rateLimited, rateLimited, { content: 'finally' });

    const started = Date.now();
    const result = await client().text({ role: 'router', messages });

    expect(result.text).toBe('finally');
    expect(result.usage.retries).toBe(2);
    expect(llm.requests).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('counts retries of a streamed call too', async () => {
    llm.enqueue({ status: 503, headers: { 'retry-after-ms': '1' } }, { content: 'streamed after retry' });

    const result = await client().text({ role: 'preview', messages, onDelta: () => undefined });

    expect(result.usage.retries).toBe(1);
  });

  it('wraps a persistent 500 in a retryable LlmError without leaking the key', async () => {
    llm.handler = () => ({ status: 500, headers: { 'retry-after-ms': '1' }, body: `boom ${API_KEY}` });

    const error = await rejectionOf(client().text({ role: 'router', messages }));

    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/3 attempt\(s\)/);
    expect(error.message).not.toContain(API_KEY);
    expect(error.cause).toBeDefined();
    expect(llm.requests).toHaveLength(3);
  });

  it('wraps a 400 in a non-retryable LlmError without retrying', async () => {
    llm.enqueue({ status: 400 });

    const error = await rejectionOf(client().text({ role: 'router', messages }));

    expect(error.retryable).toBe(false);
    expect(llm.requests).toHaveLength(1);
  });

  it('times out a hanging server, retries once, then fails retryable', async () => {
    llm.handler = () => ({ hang: true });

    const error = await rejectionOf(client({ timeoutMs: 150, maxRetries: 1 }).text({ role: 'router', messages }));

    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/timed out/);
    expect(llm.requests).toHaveLength(2);
  });

  it('aborts a stream that stalls between chunks', async () => {
    llm.enqueue({ content: 'one two three four', chunkDelayMs: 1_000 });
    const deltas: string[] = [];

    const error = await rejectionOf(
      client({ timeoutMs: 150, maxRetries: 0 }).text({ role: 'preview', messages, onDelta: (d) => deltas.push(d) }),
    );

    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/stalled/);
    expect(deltas).toEqual([]);
  });

  it('is not retryable when the caller aborts', async () => {
    llm.handler = () => ({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);

    const error = await rejectionOf(client().text({ role: 'router', messages, signal: controller.signal }));

    expect(error.retryable).toBe(false);
    expect(llm.requests).toHaveLength(1);
  });

  it('sends the model configured for each role', async () => {
    llm.handler = () => ({ content: '{"intent": "question", "tables": []}' });
    const c = client();

    await c.text({ role: 'router', messages });
    await c.text({ role: 'preview', messages, onDelta: () => undefined });
    await c.json({ role: 'reasoning', messages, schema: Intent, schemaName: 'intent' });

    expect(llm.requests.map((r) => r.model)).toEqual(['router-model', 'preview-model', 'reasoning-model']);
  });

  it('answers by when() rules on the last user/system message', async () => {
    llm.when(/per minute/, { content: 'rule answer' }, { times: 1 });
    llm.handler = () => ({ content: 'handler answer' });
    const c = client();

    expect((await c.text({ role: 'router', messages })).text).toBe('rule answer');
    expect((await c.text({ role: 'router', messages })).text).toBe('handler answer');
  });
});
