import { recordedExchanges, recordedFunctions, recordedStreams } from '@nl2p/testing';
import { prevalidate } from './prevalidate';
import type { Grounding, GroundedFunction } from './types';

// The local veloFlux check against a real engine's verdicts: every SQL the recorded Manager
// accepted (create 201, upsert 200) must pass `prevalidate`, grounded the way the product grounds
// it (stream describes and the function catalog, from the same recording).

const exchanges = recordedExchanges();
const columnsByStream = recordedStreams();
const functions: GroundedFunction[] = recordedFunctions();

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

  it.each(accepted.map((c) => [c.name, c.sql, c.stream] as const))(
    '%s: accepts what the engine accepted: %s',
    (_name, sql, stream) => {
      expect(columnsByStream[stream]).toBeDefined();
      const result = prevalidate(sql, grounding(stream));
      expect(result.ok ? [] : result.errors).toEqual([]);
    },
  );
});
