import { EnvelopeValidationError, newSessionEnvelope, parseEnvelope } from './envelope';
import { isTmpPipelineId, jobId, tmpPipelineId } from './ids';

const env = newSessionEnvelope({
  sessionId: 'c'.repeat(32),
  target: 'veloflux',
  maxAttempts: 3,
  sink: { type: 'nop', props: {} },
});

describe('envelope', () => {
  it('round-trips through JSON and validation', () => {
    expect(parseEnvelope(JSON.parse(JSON.stringify(env)))).toEqual(env);
  });

  it('rejects a wrong schema version and names every bad path', () => {
    const bad = { ...env, schema_version: 2, turn_id: -1 };
    expect(() => parseEnvelope(bad)).toThrow(EnvelopeValidationError);
    expect(() => parseEnvelope(bad)).toThrow(/schema_version.*turn_id|turn_id.*schema_version/s);
  });
});

describe('ids', () => {
  it('job ids are deterministic per session/turn/node/attempt and never contain a colon', () => {
    expect(jobId('s:1', 2, 'validate', 3)).toBe('s_1.t2.validate.a3');
    expect(jobId('s', 2, 'validate', 3)).toBe(jobId('s', 2, 'validate', 3));
    expect(jobId('s', 2, 'validate', 3)).not.toBe(jobId('s', 2, 'validate', 4));
  });

  it('temp pipeline ids carry session, turn and attempt under the prefix', () => {
    const id = tmpPipelineId('abc', 4, 2);
    expect(id).toBe('__nl2pipeline_tmp__abc_4_2');
    expect(isTmpPipelineId(id)).toBe(true);
    expect(isTmpPipelineId('user_pipeline')).toBe(false);
  });
});
