import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Column } from '@nl2p/envelope';
import { prevalidate } from './prevalidate';
import type { Grounding, GroundedFunction } from './types';

// The local veloFlux check against a real engine's verdicts: every SQL the recorded Manager
// accepted (create 201, upsert 200) must pass `prevalidate`, grounded the way the product grounds
// it (stream describes and the function catalog, from the same recording).

/** `shared/manager-api/recorded/exchanges.jsonl`, beside the repository root. */
const EXCHANGES = path.resolve(__dirname, '../../../..', '../shared/manager-api/recorded/exchanges.jsonl');

interface Exchange {
  name: string;
  method: string;
  path: string;
  request: string | null;
  status: number;
  body: string;
}

function load(): Exchange[] {
  if (!existsSync(EXCHANGES)) {
    throw new Error(
      `recorded exchanges not found at ${EXCHANGES}: shared/manager-api must sit beside the repository root`,
    );
  }
  return readFileSync(EXCHANGES, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Exchange);
}

const exchanges = load();
const columnsByStream: Record<string, Column[]> = {};
for (const e of exchanges) {
  // `stream` is never described, so its create answer (the same StreamInfo schema) grounds it.
  if (e.method === 'POST' && e.path === '/streams' && e.status === 201) {
    const info = JSON.parse(e.body) as { name: string; schema: { columns: Column[] } };
    columnsByStream[info.name] ??= info.schema.columns;
  }
  if (e.method === 'GET' && e.path.startsWith('/streams/describe/') && e.status === 200) {
    const d = JSON.parse(e.body) as { stream: string; spec: { schema: { columns: Column[] } } };
    columnsByStream[d.stream] = d.spec.schema.columns;
  }
}
const functions = (
  JSON.parse(exchanges.find((e) => e.method === 'GET' && e.path === '/functions')?.body ?? '[]') as GroundedFunction[]
).map((f) => ({ name: f.name, aliases: f.aliases ?? [], kind: f.kind }));

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
