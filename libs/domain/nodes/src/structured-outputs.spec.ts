import { z } from 'zod';
import { newSessionEnvelope, type Envelope } from '@nl2p/envelope';
import type { Catalog } from '@nl2p/engine';
import { sqlGrammarFor, toGrammarJsonSchema, unknownSqlIdentifiers } from '@nl2p/llm';
import { routerSchema } from './llm-nodes';
import { columnNames, sqlVocabularyFor } from './vocabulary';

const STREAMS = ['sensor_stream', 'vehicle'];

describe('routerSchema (the route_intent output for one turn)', () => {
  const schema = routerSchema(STREAMS);

  it('is the strict enumerated schema on the wire and in the grammar', () => {
    const json = z.toJSONSchema(schema) as { properties: Record<string, unknown>; required: string[] };
    expect(json.required).toEqual(['intent', 'stream', 'question']);
    expect(JSON.stringify(json.properties.stream)).toContain('"enum":["sensor_stream","vehicle"]');
    expect(JSON.stringify(json)).not.toContain('"default"');
    expect((toGrammarJsonSchema(json).properties as Record<string, unknown>).stream).toEqual({
      oneOf: [{ type: 'string', enum: STREAMS }, { type: 'null' }],
    });
  });

  it('accepts what unconstrained servers (and the scripted tests) answer, dropping unknown streams', () => {
    expect(schema.parse({ intent: 'nl2sql', stream: 'sensor_stream', question: null })).toEqual({
      intent: 'nl2sql',
      stream: 'sensor_stream',
      question: null,
    });
    // Case-insensitive match like a person's choice; anything else is dropped, not an error.
    expect(schema.parse({ intent: 'nl2sql', stream: 'VEHICLE' }).stream).toBe('vehicle');
    expect(schema.parse({ intent: 'describe_stream', stream: 'orders', question: null }).stream).toBeNull();
    expect(schema.parse({ intent: 'ask_user', question: 'x'.repeat(500) }).question).toHaveLength(200);
    expect(schema.safeParse({ intent: 'drop_everything', stream: null, question: null }).success).toBe(false);
  });
});

describe('sqlVocabularyFor', () => {
  const catalog: Catalog = {
    dialect: 'duckdb',
    functions: [
      { name: 'avg', kind: 'aggregate', aliases: ['mean'], signature: 'avg(x)', description: '', contexts: [] },
      { name: 'time_bucket', kind: 'scalar', aliases: [], signature: '', description: '', contexts: [] },
    ],
    syntax: [],
    dialectNotes: [],
  };
  const e: Envelope = {
    ...newSessionEnvelope({
      sessionId: 'a'.repeat(32),
      target: 'duckdb',
      maxAttempts: 3,
      sink: { type: 'nop', props: {} },
    }),
    streams: ['sensor_readings', 'devices'],
    active_stream: 'sensor_readings',
    stream_schema: {
      name: 'sensor_readings',
      columns: [
        { name: 'ts', data_type: 'timestamp' },
        { name: 'reading', data_type: 'struct', fields: [{ name: 'temperature', data_type: 'double' }] },
      ],
    },
    tables: {
      sensor_readings: [{ name: 'ts', data_type: 'timestamp' }],
      devices: [{ name: 'site', data_type: 'varchar' }],
    },
  };

  it('takes the grounded streams, columns (nested and joinable ones), functions with aliases and dialect words', () => {
    const vocabulary = sqlVocabularyFor(e, catalog);
    expect(vocabulary.streams).toEqual(['sensor_readings', 'devices']);
    expect(vocabulary.columns).toEqual(['ts', 'reading', 'temperature', 'site']);
    expect(vocabulary.functions).toEqual(['avg', 'mean', 'time_bucket']);
    expect(vocabulary.extraKeywords).toContain('FULL');
  });

  it('keeps to the active stream for compact prompts, so a small model cannot wander off it', () => {
    const vocabulary = sqlVocabularyFor(e, catalog, { activeStreamOnly: true });
    expect(vocabulary).toMatchObject({ streams: ['sensor_readings'], columns: ['ts', 'reading', 'temperature'] });
    const grammar = sqlGrammarFor(vocabulary);
    expect(grammar).not.toContain('"devices"');
    expect(grammar).not.toContain('"site"');
    expect(unknownSqlIdentifiers('SELECT site FROM devices', vocabulary)).toEqual(['site', 'devices']);
  });

  it('lists nested field names once', () => {
    expect(
      columnNames([
        { name: 'a', data_type: 'struct', fields: [{ name: 'b', data_type: 'int' }] },
        {
          name: 'l',
          data_type: 'list',
          element: { name: 'item', data_type: 'struct', fields: [{ name: 'b', data_type: 'int' }] },
        },
      ]),
    ).toEqual(['a', 'b', 'l']);
  });
});

describe('routerSchema, built once per list of streams', () => {
  it('returns the same schema for the same streams, another for other streams, and keeps its own copy', () => {
    const streams = ['orders', 'payments'];
    const schema = routerSchema(streams);
    expect(routerSchema(['orders', 'payments'])).toBe(schema);
    expect(routerSchema(['orders'])).not.toBe(schema);
    streams.push('refunds');
    // The caller's later change to its array does not reach the kept schema.
    expect(schema.safeParse({ intent: 'nl2sql', stream: 'refunds', question: null }).data?.stream).toBeNull();
    expect(schema.safeParse({ intent: 'nl2sql', stream: 'ORDERS', question: null }).data?.stream).toBe('orders');
  });
});
