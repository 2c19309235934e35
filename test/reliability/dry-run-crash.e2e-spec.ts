import { Queue } from 'bullmq';
import { TMP_PIPELINE_PREFIX } from '@nl2p/envelope';
import { QueueName } from '@nl2p/graph';
import { DRAFT_SYSTEM_MARK, ROUTER_SYSTEM_MARK } from '@nl2p/prompts';
import {
  FakeManager,
  ScriptedLlm,
  ServiceProcess,
  freePort,
  startMqttBroker,
  waitForHealth,
  type ScriptedReply,
  type ServiceName,
  type TestBroker,
} from '@nl2p/testing';
import { GatewayClient } from '../support/client';
import { deletePrefix, testEnv } from '../support/stack';
import { GOOD_SQL, REQUEST, sleep, waitFor } from './support';

/**
 * The validator process SIGKILLed while a candidate runs on sample rows: its dry run's `finally`
 * never runs, so its temporary MQTT stream and pipeline stay on the engine. Whatever happens next
 * (the job re-delivered to a restarted validator, or the turn cancelled meanwhile), the turn ends
 * cleanly and nothing temporary is left on the engine.
 */

// A killed worker's job is re-delivered once its lock (LLM_TIMEOUT_MS + 5 s) runs out.
const LLM_TIMEOUT_MS = 2_000;
const REDELIVERY_MS = LLM_TIMEOUT_MS + 5_000 + 10_000;

jest.setTimeout(120_000);

describe('a validator killed in the middle of a dry run', () => {
  const manager = new FakeManager();
  const llm = new ScriptedLlm();
  let broker: TestBroker;
  let env: Record<string, string>;
  let services: Map<ServiceName, ServiceProcess>;
  let api: GatewayClient;

  beforeAll(async () => {
    const [managerUrl, llmUrl, b, gatewayPort] = await Promise.all([
      manager.start(),
      llm.start(),
      startMqttBroker(),
      freePort(),
    ]);
    broker = b;
    llm.handler = answer;
    env = testEnv({
      managerUrl,
      llmUrl,
      env: {
        GATEWAY_PORT: String(gatewayPort),
        LLM_TIMEOUT_MS: String(LLM_TIMEOUT_MS),
        // The default configuration: candidates run on sample rows, fed over this broker.
        VELOFLUX_DRY_RUN: 'true',
        VELOFLUX_DRY_RUN_BROKER_URL: broker.url,
        VELOFLUX_DRY_RUN_LIMIT_MS: '6000',
        JANITOR_SWEEP_EVERY_MS: '1000',
      },
    });
    const names: ServiceName[] = ['validator', 'router-llm', 'sql-drafter', 'explainer', 'janitor', 'gateway'];
    services = new Map(names.map((name) => [name, new ServiceProcess(name, env)]));
    for (const p of services.values()) p.start();
    api = new GatewayClient(`http://127.0.0.1:${gatewayPort}`);
    await waitForHealth(api.baseUrl, 60_000, [...services.values()]);
  });

  afterAll(async () => {
    await Promise.all([...(services?.values() ?? [])].map((p) => p.stop('SIGKILL')));
    await Promise.all([manager.stop(), llm.stop(), broker?.close()]);
    if (env) await deletePrefix(env.REDIS_URL, env.REDIS_PREFIX);
  });

  beforeEach(() => {
    // Every engine call takes a little while, so the dry run is long enough to be killed in.
    manager.delayMs = 50;
  });

  function answer(req: { messages: { role: string; content: string }[] }): ScriptedReply {
    const system = req.messages.find((m) => m.role === 'system')?.content ?? '';
    if (system.includes(ROUTER_SYSTEM_MARK)) {
      return { content: JSON.stringify({ intent: 'nl2sql', stream: 'sensor_stream', question: null }) };
    }
    if (system.includes(DRAFT_SYSTEM_MARK)) return { content: GOOD_SQL };
    return { status: 400, headers: { 'x-should-retry': 'false' }, body: 'unexpected prompt' };
  }

  const tmpOnEngine = () => ({
    pipelines: manager.pipelines().filter((id) => id.startsWith(TMP_PIPELINE_PREFIX)),
    streams: manager.streamNames().filter((name) => name.startsWith(TMP_PIPELINE_PREFIX)),
  });

  /** Starts a turn (not waiting for it) and SIGKILLs the validator once its dry run stands on the engine. */
  async function killValidatorMidDryRun(): Promise<{ sessionId: string; dryId: string }> {
    const sessionId = await api.createSession();
    const posted = await api.request('POST', `/v1/sessions/${sessionId}/turns`, { text: REQUEST });
    expect([200, 202]).toContain(posted.status);
    const dryId = await waitFor(
      'the dry run’s pipeline on the engine',
      () => manager.pipelines().find((id) => id.includes(sessionId) && id.endsWith('_dry')),
      30_000,
      10,
    );
    await services.get('validator')!.stop('SIGKILL');
    return { sessionId, dryId };
  }

  async function view(sessionId: string): Promise<any> {
    return (await api.request('GET', `/v1/sessions/${sessionId}`)).body;
  }

  it('re-delivered to a restarted validator: the dry run runs again, the turn is offered, nothing temporary is left', async () => {
    const { sessionId, dryId } = await killValidatorMidDryRun();
    // The kill really left the dry run behind: its stream and its (started) pipeline.
    expect(tmpOnEngine().streams).toEqual([dryId]);
    expect(manager.pipelines()).toContain(dryId);

    services.get('validator')!.start();
    const ended = await waitFor(
      'the turn to stop',
      async () => {
        const v = await view(sessionId);
        return v.status !== 'running' && v;
      },
      REDELIVERY_MS + 30_000,
      200,
    );
    expect(ended).toMatchObject({ status: 'waiting', interrupt: { type: 'need_confirm' }, sql: GOOD_SQL });
    // The second run went through the dry run too (a 10 s window is more than its limit allows).
    expect(ended.assumptions).toEqual(
      expect.arrayContaining([expect.stringContaining('On sample rows this pipeline ran without a run-time error')]),
    );
    expect(manager.createCount(dryId)).toBe(2);
    expect(tmpOnEngine()).toEqual({ pipelines: [], streams: [] });
  });

  it('cancelled while its validator is dead: the reaper removes the dry run, the re-delivered job creates nothing', async () => {
    const { sessionId, dryId } = await killValidatorMidDryRun();
    const cancelled = await api.request('POST', `/v1/sessions/${sessionId}/turns/current/cancel`);
    expect(cancelled.status).toBe(200);
    await waitFor(
      'the dry run’s stream and pipeline removed',
      () => {
        const left = tmpOnEngine();
        return !left.pipelines.length && !left.streams.length;
      },
      15_000,
    );

    services.get('validator')!.start();
    // The killed job stays active until the restarted worker finds it stalled, then runs again.
    const queue = new Queue(QueueName.Validator, {
      connection: { url: env.REDIS_URL },
      prefix: `${env.REDIS_PREFIX}-bull`,
    });
    try {
      await waitFor(
        'the killed job re-delivered and finished',
        async () => {
          const pending = await queue.getJobs(['active', 'waiting', 'delayed', 'prioritized']);
          return !pending.some((j) => j.id?.startsWith(sessionId));
        },
        REDELIVERY_MS,
        250,
      );
    } finally {
      await queue.close();
    }
    await sleep(500);
    expect(manager.createCount(dryId)).toBe(1);
    expect(tmpOnEngine()).toEqual({ pipelines: [], streams: [] });
    expect(await view(sessionId)).toMatchObject({ status: 'cancelled' });
  });
});
