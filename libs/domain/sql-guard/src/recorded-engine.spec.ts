import { recordedExchanges, recordedFunctions, recordedStreams } from '@nl2p/testing';
import { prevalidate } from './prevalidate';
import type { Grounding, GroundedFunction } from './types';

// The local veloFlux check against a real engine's verdicts: every SQL the recorded Manager
// accepted (create 201, upsert 200) must pass `prevalidate`, grounded the way the product grounds
// it (stream describes and the function catalog, from the same recording).

const exchanges = recordedExchanges();
const columnsByStream = recordedStreams();
const functions: GroundedFunction[] = recordedFunctions();

/**
 * Creates the recorded engine accepted whose pipelines then fail or compute something else when
 * they run (a real engine fed known rows: libs/testing/src/live-engine.ts). The local check refuses
 * them on purpose, saying what to write instead.
 */
const FAILS_WHEN_RUN: Record<string, string> = {
  probe_count_distinct_create: 'the window aggregation fails at run time: DISTINCT aggregates are not supported yet',
};

/** SQL the engine accepted, with the stream its FROM names. */
const accepted = exchanges
  .filter(
    (e) =>
      (e.method === 'POST' && e.path === '/pipelines' && e.status === 201) || (e.method === 'PUT' && e.status === 200),
  )
  .map((e) => ({ name: e.name, sql: (JSON.parse(e.request ?? '{}') as { sql: string }).sql }))
  .map((c) => ({
    ...c,
    stream: /\bFROM\s+\(?\s*(?:SELECT .*? FROM\s+)?([A-Za-z_][A-Za-z0-9_]*)/i.exec(c.sql)?.[1] ?? '',
  }));

function grounding(stream: string): Grounding {
  return {
    dialect: 'veloflux',
    streams: Object.keys(columnsByStream),
    stream,
    columns: columnsByStream[stream] ?? [],
    functions,
    columnsByTable: columnsByStream,
  };
}

describe('prevalidate (veloflux) against the recorded engine', () => {
  it('has the recorded grounding', () => {
    expect(Object.keys(columnsByStream).sort()).toEqual(
      ['orders', 'sensor_readings', 'sensor_stream', 'stream', 'stream_ab', 'vehicle', 'vehicle_telemetry'].sort(),
    );
    expect(functions.length).toBeGreaterThan(100);
    expect(accepted.length).toBeGreaterThan(40);
  });

  it.each(accepted.filter((c) => !FAILS_WHEN_RUN[c.name]).map((c) => [c.name, c.sql, c.stream] as const))(
    '%s: accepts what the engine accepted: %s',
    (_name, sql, stream) => {
      expect(columnsByStream[stream]).toBeDefined();
      const result = prevalidate(sql, grounding(stream));
      expect(result.ok ? [] : result.errors).toEqual([]);
    },
  );

  it.each(Object.entries(FAILS_WHEN_RUN))('%s: created, but refused because %s', (name) => {
    const c = accepted.find((x) => x.name === name);
    expect(c).toBeDefined();
    expect(prevalidate(c?.sql ?? '', grounding(c?.stream ?? '')).ok).toBe(false);
  });
});
