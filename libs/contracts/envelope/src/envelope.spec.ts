import { ENVELOPE_SCHEMA_VERSION, EnvelopeValidationError, newSessionEnvelope, parseEnvelope } from './envelope';
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
    const bad = { ...env, schema_version: ENVELOPE_SCHEMA_VERSION + 1, turn_id: -1 };
    expect(() => parseEnvelope(bad)).toThrow(EnvelopeValidationError);
    expect(() => parseEnvelope(bad)).toThrow(/schema_version.*turn_id|turn_id.*schema_version/s);
    expect(() => parseEnvelope({ ...env, schema_version: 0 })).toThrow(/schema_version/);
  });

  it('is at version 2, and reads a version-1 checkpoint (written before the reading) as one with no reading', () => {
    expect(ENVELOPE_SCHEMA_VERSION).toBe(2);
    const v1 = JSON.parse(
      JSON.stringify({ ...env, node: 'route_intent', request: 'avg temp', schema_version: 1 }),
    ) as Record<string, unknown>;
    delete v1.reading;
    const read = parseEnvelope(v1);
    expect(read.schema_version).toBe(2);
    expect(read.reading).toBeNull();
    expect(read).toEqual({ ...env, node: 'route_intent', request: 'avg temp' });
  });

  it('carries a reading, and refuses one that is not a reading', () => {
    const reading = {
      request: 'average temperature per device',
      intent: 'nl2sql',
      named_table: null,
      tables: [{ table: 'sensor_stream', score: 0.9 }],
      table: 'sensor_stream',
      plan: { source: 'sensor_stream' },
      columns: [{ table: 'sensor_stream', label: 'temperature' }],
      tokens: [
        { token: 'average', consumed_by: 'aggregate', reason: null },
        { token: 'per', consumed_by: 'group', reason: null },
        { token: 'the', consumed_by: 'filler', reason: 'function_word' },
      ],
      unknown: [],
      ambiguous: [],
      unexplained: [],
      assumptions: [],
      doubts: [],
      confidence: 'high',
      trusted: true,
    };
    const read = parseEnvelope(JSON.parse(JSON.stringify({ ...env, reading })));
    // The plan is a parsed query plan: its defaults are filled in.
    expect(read.reading?.plan).toMatchObject({ source: 'sensor_stream', joins: [], where: null });
    expect(() => parseEnvelope({ ...env, reading: { ...reading, confidence: 'certain' } })).toThrow(
      /reading\.confidence/,
    );
    expect(() =>
      parseEnvelope({ ...env, reading: { ...reading, tokens: [{ token: 'x', consumed_by: 'magic', reason: null }] } }),
    ).toThrow(/reading\.tokens\.0\.consumed_by/);
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
