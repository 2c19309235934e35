import { LIVE_CREATE_VERDICTS, LIVE_RUNTIME_FACTS, PROBE_STREAM } from '@nl2p/testing';
import { VELOFLUX_FUNCTIONS } from './__fixtures__/contract';
import { prevalidate } from './prevalidate';
import type { Grounding } from './types';

// The local veloFlux check against a real engine's answers beyond the recordings
// (@nl2p/testing, live-engine.ts): it accepts what the engine creates and refuses what it refuses,
// and it refuses what the engine creates but then runs wrongly or not at all.
const grounding = (stream: string, columns: Grounding['columns']): Grounding => ({
  dialect: 'veloflux',
  streams: [stream],
  stream,
  columns,
  functions: VELOFLUX_FUNCTIONS,
});

describe('the local veloFlux check agrees with the live engine', () => {
  it.each(LIVE_CREATE_VERDICTS)('$sql → $status', ({ sql, status }) => {
    const result = prevalidate(sql, grounding(PROBE_STREAM.name, PROBE_STREAM.columns));
    expect({ sql, ok: result.ok, errors: result.ok ? [] : result.errors }).toEqual({
      sql,
      ok: status === 201,
      errors: status === 201 ? [] : [expect.any(String)],
    });
  });

  const probeIn = grounding('probe_in', [
    { name: 'device_id', data_type: 'string' },
    { name: 'temperature', data_type: 'float64' },
    { name: 'humidity', data_type: 'float64' },
  ]);
  const runtime = (fragment: string) => {
    const fact = LIVE_RUNTIME_FACTS.find((f) => f.sql.includes(fragment));
    if (!fact) throw new Error(`no live fact with ${fragment}`);
    return { ...fact, result: prevalidate(fact.sql, probeIn) };
  };

  it('refuses FILTER (WHERE …) on aggregates, which the running engine ignores, and names the form that works', () => {
    const { emitted, result } = runtime('FILTER (WHERE');
    expect(emitted).toContain('"n":4'); // all four of d1's rows, not the two that match
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toEqual([
      expect.stringMatching(
        /^veloFlux ignores FILTER \(WHERE …\) on avg\(\).*avg\(CASE WHEN <condition> THEN x END\)$/,
      ),
      expect.stringMatching(
        /^veloFlux ignores FILTER \(WHERE …\) on count\(\).*count\(CASE WHEN <condition> THEN 1 END\)$/,
      ),
    ]);
  });

  it('refuses count(DISTINCT …), which fails when the pipeline runs, and offers ndv()', () => {
    const { emitted, result } = runtime('count(DISTINCT');
    expect(emitted).toContain('DISTINCT aggregates are not supported yet');
    expect(!result.ok && result.errors.join()).toContain('use ndv(x) for a distinct count');
  });

  it('accepts the forms that computed the right numbers: conditions inside aggregates, HAVING, ndv()', () => {
    for (const fragment of ['HAVING count(CASE WHEN humidity > 50', 'humidity > 99', 'ndv(device_id)']) {
      const { sql, result } = runtime(fragment);
      expect({ sql, ok: result.ok }).toEqual({ sql, ok: true });
    }
  });
});
