import type { INestApplicationContext } from '@nestjs/common';
import { loadConfig, type AppConfig } from '@nl2p/config';
import { TMP_PIPELINE_PREFIX, tmpPipelineId } from '@nl2p/envelope';
import { ManagerClient } from '@nl2p/engine';
import { leaveDryRun } from '../support/dry-run-leftovers';
import { FakeManager } from '@nl2p/testing';
import type { JanitorService, SweepReport } from '../../apps/janitor/src/janitor.service';
import { deletePrefix, testEnv } from '../support/stack';
import { GOOD_SQL, RedisProbe, newSessionId, sleep, startJanitor, waitFor } from './support';

jest.setTimeout(30_000);

/** A sweep now, waiting out one a scheduled run may hold (the sweep lock). */
async function sweepNow(janitor: JanitorService): Promise<SweepReport> {
  return waitFor('a sweep', () => janitor.sweep('test'), 10_000, 100);
}

describe('janitor sweeps', () => {
  const manager = new FakeManager();
  let client: ManagerClient;
  const contexts: INestApplicationContext[] = [];
  let config: AppConfig;
  let probe: RedisProbe;

  const config_ = (extra: Record<string, string> = {}) =>
    loadConfig(
      testEnv({
        managerUrl: manager.baseUrl,
        llmUrl: 'http://127.0.0.1:9/v1',
        env: { REDIS_PREFIX: config?.redis.prefix ?? `j${newSessionId().slice(0, 8)}`, ...extra },
      }),
    );

  /** A janitor replica, once the sweep its scheduler runs at start is done. */
  async function janitorWith(extra: Record<string, string> = {}) {
    const { ctx, janitor } = await startJanitor(config_(extra));
    contexts.push(ctx);
    await waitFor('the first scheduled sweep', async () => (await probe.stats()).sweeps >= 1);
    return janitor;
  }

  /** A temp pipeline stored in the Manager as `validate` would have created it. */
  const create = (id: string) => client.createPipeline({ id, sql: GOOD_SQL, sinks: [{ type: 'nop' }] });
  const tmpIds = () => manager.pipelines().filter((id) => id.startsWith(TMP_PIPELINE_PREFIX));

  beforeAll(async () => {
    await manager.start();
    client = new ManagerClient({ baseUrl: manager.baseUrl, backoffMs: 1 });
    config = config_();
    probe = new RedisProbe(config);
  });

  afterEach(async () => {
    while (contexts.length) await contexts.pop()!.close();
    await deletePrefix(config.redis.url, config.redis.prefix);
    manager.reset();
  });

  afterAll(async () => {
    probe.close();
    await manager.stop();
  });

  it('deletes leaked temp pipelines, keeps the one an in-flight turn owns, never touches other pipelines', async () => {
    const janitor = await janitorWith({ JANITOR_SWEEP_EVERY_MS: '600000' });
    // In flight: a running turn at `explain` of attempt 1 owns its temp pipeline.
    const live = await probe.session({ node: 'explain', status: 'running', turnId: 2, attempt: 1 });
    const owned = tmpPipelineId(live.session_id, 2, 1);
    await create(owned);
    // The same session's earlier attempt, and a turn that failed: nobody needs those.
    const earlier = tmpPipelineId(live.session_id, 2, 0);
    await create(earlier);
    const failed = await probe.session({ node: 'validate', status: 'failed', turnId: 1, attempt: 1 });
    const ofFailed = tmpPipelineId(failed.session_id, 1, 1);
    await create(ofFailed);
    // A create that failed after storing (CONTRACT §5.2 step 8) whose worker died before deleting.
    const orphan = tmpPipelineId(newSessionId(), 1, 1, config.deploymentId);
    manager.failAfterStoreNextCreate();
    await expect(create(orphan)).rejects.toMatchObject({ status: 400 });
    // The prefix, but no id we would make (never judged, so never deleted); a person's pipeline.
    await create(`${TMP_PIPELINE_PREFIX}junk`);
    await create('sensor_avg');
    await create('nl2pipeline_tmp_lookalike');
    expect(tmpIds()).toHaveLength(5);

    const report = await sweepNow(janitor);

    expect(tmpIds()).toEqual([owned, `${TMP_PIPELINE_PREFIX}junk`].sort());
    expect(manager.pipelines()).toEqual(expect.arrayContaining(['sensor_avg', 'nl2pipeline_tmp_lookalike']));
    const deletes = manager.requests.filter((r) => r.method === 'DELETE').map((r) => decodeURIComponent(r.rawPath));
    expect(deletes.every((p) => p.startsWith(`/pipelines/${TMP_PIPELINE_PREFIX}`))).toBe(true);
    expect(report.tmp_deleted.map((d) => d.id).sort()).toEqual([earlier, ofFailed, orphan].sort());
    expect(report.tmp_deleted.every((d) => d.reason === 'unowned')).toBe(true);
    expect(report.tmp_kept).toEqual([owned]);
    expect(report.tmp_ignored).toEqual([`${TMP_PIPELINE_PREFIX}junk`]);
    expect(report.tmp_seen).toBe(5);
    await expect(probe.stats()).resolves.toMatchObject({ sweeps: expect.any(Number), tmp_deleted: 3 });
    const logged = JSON.parse((await probe.redis.lindex(probe.keys.janitorSweeps(), 0))!) as SweepReport;
    expect(logged.tmp_deleted).toHaveLength(3);
  });

  it("sweeps dry runs' streams and pipelines of every form the product made, and only those", async () => {
    const janitor = await janitorWith({ JANITOR_SWEEP_EVERY_MS: '600000', DEPLOYMENT_ID: 'aaaaaaaa' });
    const dryRun = (id: string) => leaveDryRun(client, id);
    // Turns of ours that ended: one checkpointed before deployments were named (its session is in
    // our store), one after.
    const before = await probe.session({ node: 'validate', status: 'failed', attempt: 1 });
    const after = await probe.session({ node: 'validate', status: 'failed', attempt: 1 });
    const oldForm = `${tmpPipelineId(before.session_id, 1, 1)}_dry`;
    const newForm = `${tmpPipelineId(after.session_id, 1, 1, 'aaaaaaaa')}_dry`;
    // The first release's form from a session our store does not know: maybe another
    // deployment's turn in flight, so it waits like another deployment's.
    const unknownOldForm = `${tmpPipelineId(newSessionId(), 1, 1)}_dry`;
    // A person's stream and pipeline under the prefix, in no form we make.
    const persons = `${TMP_PIPELINE_PREFIX}my_readings`;
    for (const id of [oldForm, newForm, unknownOldForm, persons]) await dryRun(id);

    const report = await sweepNow(janitor);

    expect(report.tmp_deleted.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [oldForm, newForm].sort().map((id) => ({ id, reason: 'unowned' })),
    );
    expect(report.tmp_kept).toEqual([unknownOldForm]);
    expect(report.tmp_ignored).toEqual([persons]);
    const left = [unknownOldForm, persons].sort();
    expect(tmpIds()).toEqual(left);
    expect(manager.streamNames().filter((n) => n.startsWith(TMP_PIPELINE_PREFIX))).toEqual(left);
    expect(manager.streamNames()).toContain('sensor_stream');
  });

  it('deletes even an owned temp pipeline once it is older than JANITOR_TMP_MAX_AGE_MS', async () => {
    const janitor = await janitorWith({ JANITOR_SWEEP_EVERY_MS: '600000', JANITOR_TMP_MAX_AGE_MS: '1500' });
    const live = await probe.session({ node: 'validate', status: 'running', attempt: 1 });
    const owned = tmpPipelineId(live.session_id, 1, 1);
    await create(owned);
    expect((await sweepNow(janitor)).tmp_kept).toEqual([owned]);
    await sleep(1_600);
    const report = await sweepNow(janitor);
    expect(report.tmp_deleted).toEqual([{ id: owned, reason: 'too_old' }]);
    expect(tmpIds()).toEqual([]);
  });

  it("leaves another deployment's temp pipelines on a shared Manager until far past any turn's lifetime", async () => {
    const janitor = await janitorWith({
      JANITOR_SWEEP_EVERY_MS: '600000',
      DEPLOYMENT_ID: 'aaaaaaaa',
      JANITOR_FOREIGN_TMP_MAX_AGE_MS: '1500',
    });
    // Another deployment's in-flight explain: its session lives in its own Redis, not ours.
    const theirs = tmpPipelineId(newSessionId(), 1, 1, 'bbbbbbbb');
    await create(theirs);
    // Ours, leaked by a turn that failed.
    const failed = await probe.session({ node: 'validate', status: 'failed', turnId: 1, attempt: 1 });
    const ours = tmpPipelineId(failed.session_id, 1, 1, 'aaaaaaaa');
    await create(ours);

    const first = await sweepNow(janitor);
    expect(first.tmp_deleted).toEqual([{ id: ours, reason: 'unowned' }]);
    expect(first.tmp_kept).toEqual([theirs]);
    expect(tmpIds()).toEqual([theirs]);
    // Past the foreign limit: that deployment is gone, so the leak is removed after all.
    await sleep(1_600);
    expect((await sweepNow(janitor)).tmp_deleted).toEqual([{ id: theirs, reason: 'foreign_too_old' }]);
    expect(tmpIds()).toEqual([]);
  });

  it('ends a turn stuck past TURN_DEADLINE_MS with an error event and turn_end, and deletes its temp pipeline', async () => {
    const janitor = await janitorWith({ JANITOR_SWEEP_EVERY_MS: '600000', TURN_DEADLINE_MS: '1000' });
    const tmp = (id: string) => tmpPipelineId(id, 1, 1);
    const stuck = await probe.session({ node: 'explain', status: 'running', attempt: 1 });
    await probe.store.compareAndSet(stuck.version, {
      ...stuck,
      validation: { ...stuck.validation, tmp_pipeline_id: tmp(stuck.session_id) },
    });
    await create(tmp(stuck.session_id));
    await sleep(1_100);
    const fresh = await probe.session({ node: 'draft_sql', status: 'running' });

    const report = await sweepNow(janitor);

    expect(report.turns_failed).toEqual([{ session_id: stuck.session_id, turn_id: 1, node: 'explain' }]);
    const ended = (await probe.store.get(stuck.session_id))!;
    expect(ended.status).toBe('failed');
    expect(ended.error?.message).toMatch(/^explain: the turn made no progress for \d+ s \(deadline 1 s\)/);
    expect(ended.validation.tmp_pipeline_id).toBeNull();
    const events = await probe.eventList(stuck.session_id);
    expect(events.slice(-2)).toEqual([
      { type: 'error', turn_id: 1, node: 'explain', message: ended.error?.message },
      { type: 'turn_end', turn_id: 1, status: 'failed' },
    ]);
    expect(tmpIds()).toEqual([]);
    // A turn that made progress recently is left alone.
    expect((await probe.store.get(fresh.session_id))!.status).toBe('running');
    expect((await probe.store.listRunning(0)).map((r) => r.sessionId)).toEqual([fresh.session_id]);
    await expect(probe.stats()).resolves.toMatchObject({ turns_failed: 1 });
  });

  it('clears what an expired session leaves: its running-index entry and its temp pipelines', async () => {
    const janitor = await janitorWith({ JANITOR_SWEEP_EVERY_MS: '600000' });
    const gone = await probe.session({ node: 'validate', status: 'running', attempt: 1 });
    await create(tmpPipelineId(gone.session_id, 1, 1, config.deploymentId));
    // The session's TTL ran out (all three keys share it).
    await probe.redis.del(probe.keys.session(gone.session_id));

    const report = await sweepNow(janitor);

    expect(report.sessions_expired).toEqual([gone.session_id]);
    expect(await probe.store.listRunning(0)).toEqual([]);
    expect(tmpIds()).toEqual([]);
  });

  it("a session's events and trace share its TTL, refreshed by every checkpoint", async () => {
    const short = loadConfig({
      ...testEnv({ managerUrl: manager.baseUrl, llmUrl: 'http://127.0.0.1:9/v1' }),
      REDIS_PREFIX: config.redis.prefix,
      SESSION_TTL_SECONDS: '100',
    });
    const p = new RedisProbe(short);
    try {
      const s = await p.session({ node: 'draft_sql', status: 'running' });
      await p.events.append(s.session_id, { type: 'turn_start', turn_id: 1 });
      await p.redis.rpush(p.keys.trace(s.session_id), '{}');
      await p.redis.expire(p.keys.events(s.session_id), 5);
      await p.redis.expire(p.keys.trace(s.session_id), 5);
      await p.store.compareAndSet(s.version, { ...s, node: 'prevalidate' });
      for (const key of [p.keys.session(s.session_id), p.keys.events(s.session_id), p.keys.trace(s.session_id)]) {
        expect(await p.redis.ttl(key)).toBeGreaterThan(95);
      }
    } finally {
      p.close();
    }
  });

  it('two replicas never both sweep: each scheduled run is swept once, and sweeps never overlap', async () => {
    manager.delayMs = 60; // every Manager call is slow, so a sweep takes a while
    for (let i = 0; i < 3; i++) await create(tmpPipelineId(newSessionId(), 1, 1, config.deploymentId));
    const a = await janitorWith({ JANITOR_SWEEP_EVERY_MS: '250' });
    const b = await janitorWith({ JANITOR_SWEEP_EVERY_MS: '250' });
    expect(a.replica).not.toBe(b.replica);

    // Triggered at the same moment on both replicas: exactly one sweeps.
    const both = await Promise.all([a.sweep('race'), b.sweep('race')]);
    const raced = both.filter((r) => r !== null);
    expect(raced.length).toBeLessThanOrEqual(1);

    await sleep(2_500);
    await Promise.all(contexts.map((c) => c.close()));
    contexts.length = 0;

    const sweeps = (await probe.redis.lrange(probe.keys.janitorSweeps(), 0, -1))
      .map((r) => JSON.parse(r) as SweepReport)
      .sort((x, y) => x.started_at.localeCompare(y.started_at));
    const scheduled = sweeps.filter((s) => s.trigger.startsWith('scheduled'));
    expect(scheduled.length).toBeGreaterThanOrEqual(3);
    // Each scheduler run is one job, swept by one replica only.
    const jobs = scheduled.map((s) => s.trigger);
    expect(new Set(jobs).size).toBe(jobs.length);
    // No two sweeps ran at the same time, whichever replica ran them.
    for (let i = 1; i < sweeps.length; i++) {
      expect(Date.parse(sweeps[i].started_at)).toBeGreaterThanOrEqual(Date.parse(sweeps[i - 1].ended_at));
    }
    // Not twice the schedule: one sweep per run, not one per replica per run.
    const stats = await probe.stats();
    expect(stats.sweeps).toBe(sweeps.length);
    const span = Date.parse(scheduled[scheduled.length - 1].started_at) - Date.parse(scheduled[0].started_at);
    expect(scheduled.length).toBeLessThanOrEqual(Math.floor(span / 250) + 2);
    // Between them they swept the leaked pipelines once.
    expect(stats.tmp_deleted).toBe(3);
    expect(sweeps.flatMap((s) => s.tmp_deleted)).toHaveLength(3);
    expect(tmpIds()).toEqual([]);
  });
});
