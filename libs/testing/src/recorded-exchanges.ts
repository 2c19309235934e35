import { existsSync, readFileSync } from 'node:fs';
import type { Column } from '@nl2p/envelope';
import path from 'node:path';

/**
 * One HTTP exchange recorded against a real veloFlux Manager
 * (`shared/manager-api/recorded/exchanges.jsonl`; its README says how and what it taught us).
 */
export interface RecordedExchange {
  name: string;
  method: string;
  path: string;
  /** Request body text, or null. */
  request: string | null;
  request_content_type: string | null;
  status: number;
  /** Null where the engine sent no `Content-Type`. */
  content_type: string | null;
  /** Only `content-type`, `allow` and `location`. */
  headers: Record<string, string>;
  /** Response text, byte for byte. */
  body: string;
}

/** `shared/manager-api/recorded/exchanges.jsonl`, beside the repository root. */
export const RECORDED_EXCHANGES_FILE = path.resolve(
  __dirname,
  '../../..',
  '../shared/manager-api/recorded/exchanges.jsonl',
);

let cache: readonly RecordedExchange[] | undefined;

/** Every recorded exchange, in the order it was sent. Throws, saying where it looked, when absent. */
export function recordedExchanges(): readonly RecordedExchange[] {
  if (!cache) {
    if (!existsSync(RECORDED_EXCHANGES_FILE)) {
      throw new Error(
        `recorded exchanges not found at ${RECORDED_EXCHANGES_FILE}: shared/manager-api must sit beside the repository root`,
      );
    }
    cache = readFileSync(RECORDED_EXCHANGES_FILE, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as RecordedExchange);
  }
  return cache;
}

/** The recorded exchange of that name; throws when there is none (a renamed recording). */
export function recordedExchange(name: string): RecordedExchange {
  const found = recordedExchanges().find((e) => e.name === name);
  if (!found) throw new Error(`no recorded exchange named ${name}`);
  return found;
}

/**
 * Every recorded stream's columns, as the product grounds them: describes, and for a stream never
 * described its create answer (the same schema).
 */
export function recordedStreams(): Record<string, Column[]> {
  const streams: Record<string, Column[]> = {};
  for (const e of recordedExchanges()) {
    if (e.method === 'POST' && e.path === '/streams' && e.status === 201) {
      const info = JSON.parse(e.body) as { name: string; schema: { columns: Column[] } };
      streams[info.name] ??= info.schema.columns;
    }
    if (e.method === 'GET' && e.path.startsWith('/streams/describe/') && e.status === 200) {
      const d = JSON.parse(e.body) as { stream: string; spec: { schema: { columns: Column[] } } };
      streams[d.stream] = d.spec.schema.columns;
    }
  }
  return streams;
}

/** The recorded function catalog (`GET /functions`): name, kind and aliases of each entry. */
export function recordedFunctions(): { name: string; kind: string; aliases: string[] }[] {
  const list = JSON.parse(recordedExchange('functions_list').body) as {
    name: string;
    kind: string;
    aliases?: string[];
  }[];
  return list.map((f) => ({ name: f.name, kind: f.kind, aliases: f.aliases ?? [] }));
}
