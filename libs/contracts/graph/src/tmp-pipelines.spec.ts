import { newSessionEnvelope, tmpPipelineId, type Envelope } from '@nl2p/envelope';
import { ownsTmpPipeline, parseTmpPipelineId, tmpPipelinesOf } from './tmp-pipelines';

const SID = 'ab'.repeat(16);
const base = newSessionEnvelope({
  sessionId: SID,
  target: 'veloflux',
  maxAttempts: 3,
  sink: { type: 'nop', props: {} },
});
const at = (over: Partial<Envelope>, attempt = 1, tmp: string | null = null): Envelope => ({
  ...base,
  turn_id: 4,
  status: 'running',
  ...over,
  validation: { ...base.validation, attempt, tmp_pipeline_id: tmp },
});

describe('temp pipeline ids', () => {
  it('parse back into session, turn and attempt', () => {
    expect(parseTmpPipelineId(tmpPipelineId(SID, 12, 3))).toEqual({
      deployment: null,
      sessionId: SID,
      turnId: 12,
      attempt: 3,
      dryRun: false,
    });
    // The deployment that made it, so janitors sharing a Manager tell theirs from others'.
    expect(tmpPipelineId(SID, 12, 3, '0a1b2c3d')).toBe(`__nl2pipeline_tmp__0a1b2c3d_${SID}_12_3`);
    expect(parseTmpPipelineId(tmpPipelineId(SID, 12, 3, '0a1b2c3d'))).toEqual({
      deployment: '0a1b2c3d',
      sessionId: SID,
      turnId: 12,
      attempt: 3,
      dryRun: false,
    });
    // A dry run's input stream and pipeline: the attempt's id with `_dry`.
    expect(parseTmpPipelineId(`${tmpPipelineId(SID, 12, 3, '0a1b2c3d')}_dry`)).toMatchObject({
      attempt: 3,
      dryRun: true,
    });
    expect(parseTmpPipelineId('__nl2pipeline_tmp__whatever')).toBeNull();
    expect(parseTmpPipelineId('sensor_avg')).toBeNull();
    expect(parseTmpPipelineId(`x${tmpPipelineId(SID, 1, 1)}`)).toBeNull();
  });

  it('belong to a running turn that records them or stands at validate/explain/cleanup of their attempt', () => {
    const id = tmpPipelineId(SID, 4, 1);
    expect(ownsTmpPipeline(at({ node: 'explain' }), id)).toBe(true);
    expect(ownsTmpPipeline(at({ node: 'validate' }), id)).toBe(true);
    expect(ownsTmpPipeline(at({ node: 'validate' }), `${id}_dry`)).toBe(true);
    expect(ownsTmpPipeline(at({ node: 'confirm' }, 1, id), id)).toBe(true);
    // The attempt moved on, the turn ended, another turn runs, or the session is gone.
    expect(ownsTmpPipeline(at({ node: 'revise_sql' }), id)).toBe(false);
    expect(ownsTmpPipeline(at({ node: 'validate' }, 2), id)).toBe(false);
    expect(ownsTmpPipeline(at({ node: 'explain', status: 'failed' }, 1, id), id)).toBe(false);
    expect(ownsTmpPipeline(at({ node: 'explain', status: 'cancelled' }), id)).toBe(false);
    expect(ownsTmpPipeline(at({ node: 'explain', turn_id: 5 }), id)).toBe(false);
    expect(ownsTmpPipeline(null, id)).toBe(false);
    expect(ownsTmpPipeline(at({ node: 'explain' }), '__nl2pipeline_tmp__junk')).toBe(false);
  });

  it('a checkpoint names the ones it may have left behind', () => {
    const recorded = tmpPipelineId(SID, 3, 2);
    // At validate, also the attempt's dry run, which a crash mid-run may have left.
    expect(tmpPipelinesOf(at({ node: 'validate' }, 1, recorded)).sort()).toEqual(
      [recorded, tmpPipelineId(SID, 4, 1), `${tmpPipelineId(SID, 4, 1)}_dry`].sort(),
    );
    expect(tmpPipelinesOf(at({ node: 'explain' }, 1))).toEqual([tmpPipelineId(SID, 4, 1)]);
    expect(tmpPipelinesOf(at({ node: 'draft_sql' }))).toEqual([]);
  });
});
