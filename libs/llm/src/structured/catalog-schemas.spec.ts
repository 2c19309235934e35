import { z } from 'zod';
import { toGrammarJsonSchema } from '../local/grammar-json-schema';
import { DEFAULT_ROUTER_INTENTS, reviseSchemaFor, routerSchemaFor } from './catalog-schemas';
import type { SqlVocabulary } from './sql-vocabulary';

const STREAMS = ['sensor_stream', 'vehicle'];
const vocabulary: SqlVocabulary = {
  streams: STREAMS,
  columns: ['device_id', 'temperature', 'ts', 'speed'],
  functions: ['avg', 'count', 'tumblingwindow'],
};

describe('routerSchemaFor', () => {
  const schema = routerSchemaFor(STREAMS);

  it('accepts catalog streams and null', () => {
    expect(schema.parse({ intent: 'nl2sql', stream: 'vehicle', question: null })).toEqual({
      intent: 'nl2sql',
      stream: 'vehicle',
      question: null,
    });
    expect(schema.safeParse({ intent: 'list_streams', stream: null, question: null }).success).toBe(true);
  });

  it.each(['hacker_stream', 'Sensor_Stream', 'sensor_stream ', '', 'DROP TABLE sensor_stream'])(
    'rejects the stream %j, which the catalog does not have',
    (stream) => {
      expect(schema.safeParse({ intent: 'describe_stream', stream, question: null }).success).toBe(false);
    },
  );

  it('rejects intents outside the list and a missing field', () => {
    expect(schema.safeParse({ intent: 'drop_stream', stream: null, question: null }).success).toBe(false);
    expect(schema.safeParse({ intent: 'nl2sql', question: null }).success).toBe(false);
  });

  it('with no streams at all, only null is a valid stream', () => {
    const empty = routerSchemaFor([]);
    expect(empty.safeParse({ intent: 'ask_user', stream: null, question: 'which?' }).success).toBe(true);
    expect(empty.safeParse({ intent: 'ask_user', stream: 'vehicle', question: null }).success).toBe(false);
  });

  it('takes the intents from the caller', () => {
    const custom = routerSchemaFor(STREAMS, ['a', 'b']);
    expect(custom.safeParse({ intent: 'a', stream: null, question: null }).success).toBe(true);
    expect(custom.safeParse({ intent: 'nl2sql', stream: null, question: null }).success).toBe(false);
  });

  it('enumerates the streams in the JSON Schema (what json_schema servers and grammars see)', () => {
    const json = z.toJSONSchema(schema) as { properties: Record<string, unknown>; required: string[] };
    expect(json.required).toEqual(['intent', 'stream', 'question']);
    expect(JSON.stringify(json.properties.stream)).toContain('"enum":["sensor_stream","vehicle"]');
    // The grammar form keeps the enum (a oneOf, which node-llama-cpp understands; anyOf it would turn into null).
    expect(toGrammarJsonSchema(json).properties).toEqual({
      intent: { type: 'string', enum: [...DEFAULT_ROUTER_INTENTS] },
      stream: { oneOf: [{ type: 'string', enum: STREAMS }, { type: 'null' }] },
      question: { oneOf: [{ type: 'string', maxLength: 200 }, { type: 'null' }] },
    });
  });

  it('has a grammar form with only null for the stream when there are no streams', () => {
    const json = toGrammarJsonSchema(z.toJSONSchema(routerSchemaFor([])));
    expect((json.properties as Record<string, unknown>).stream).toEqual({ type: 'null' });
  });
});

describe('reviseSchemaFor', () => {
  const schema = reviseSchemaFor(vocabulary);

  it('accepts SQL that names only catalog identifiers and its own aliases', () => {
    const sql =
      'SELECT device_id, AVG(temperature) AS avg_temp FROM sensor_stream ' +
      "WHERE temperature > 30 AND device_id <> 'x y' GROUP BY device_id, TUMBLINGWINDOW(ss, 10) ORDER BY avg_temp";
    // `ss` is not in the catalog: the time unit is a keyword in some dialects, not here.
    expect(schema.safeParse({ sql, questions: [], assumptions: [] }).success).toBe(false);
    const ok = schema.safeParse({ sql: sql.replace('ss, 10', 'ts, 10'), questions: [], assumptions: [] });
    expect(ok.success).toBe(true);
  });

  it.each([
    ['an unknown column', 'SELECT humidity FROM sensor_stream'],
    ['an unknown stream', 'SELECT temperature FROM hacker_stream'],
    ['an unknown function', 'SELECT median(temperature) FROM sensor_stream'],
    ['a DDL statement', 'DROP TABLE sensor_stream'],
    ['a wrongly cased stream', 'SELECT temperature FROM Sensor_Stream'],
    ['a quoted unknown name', 'SELECT "humidity" FROM sensor_stream'],
  ])('rejects SQL with %s', (_what, sql) => {
    const result = schema.safeParse({ sql, questions: [], assumptions: [] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toMatch(/names not in the catalog/);
  });

  it('accepts null SQL with questions, and defaults missing lists', () => {
    expect(schema.parse({ sql: null, questions: ['Which stream?'] })).toEqual({
      sql: null,
      questions: ['Which stream?'],
      assumptions: [],
    });
  });

  it('bounds the lists', () => {
    expect(schema.safeParse({ sql: null, questions: ['a', 'b', 'c', 'd'], assumptions: [] }).success).toBe(false);
    expect(schema.safeParse({ sql: null, questions: ['x'.repeat(201)], assumptions: [] }).success).toBe(false);
  });
});
