import { z } from 'zod';
import { toGrammarJsonSchema } from './grammar-json-schema';

describe('toGrammarJsonSchema', () => {
  it('turns anyOf into oneOf and drops annotations and keywords validation enforces', () => {
    const schema = z.object({
      name: z
        .string()
        .regex(/^[a-z]+$/)
        .describe('a name')
        .nullable(),
      n: z.number().min(1).max(3),
      tags: z
        .array(z.enum(['a', 'b']))
        .max(2)
        .default([]),
    });
    expect(toGrammarJsonSchema(z.toJSONSchema(schema))).toEqual({
      type: 'object',
      properties: {
        name: { oneOf: [{ type: 'string' }, { type: 'null' }] },
        n: { type: 'number' },
        tags: { type: 'array', maxItems: 2, items: { type: 'string', enum: ['a', 'b'] } },
      },
      additionalProperties: false,
    });
  });

  it('drops never alternatives and collapses a single remaining one', () => {
    expect(toGrammarJsonSchema({ anyOf: [{ not: {} }, { type: 'null' }] })).toEqual({ type: 'null' });
  });

  it('keeps supported string formats only', () => {
    expect(toGrammarJsonSchema({ type: 'string', format: 'date-time' })).toEqual({
      type: 'string',
      format: 'date-time',
    });
    expect(toGrammarJsonSchema({ type: 'string', format: 'email' })).toEqual({ type: 'string' });
  });

  it('keeps $defs and $ref for recursive schemas', () => {
    const Node: z.ZodType<{ children: unknown[] }> = z.object({ children: z.array(z.lazy(() => Node)) });
    const converted = toGrammarJsonSchema(z.toJSONSchema(z.object({ root: Node })));
    expect(JSON.stringify(converted)).toContain('"$ref":"#/$defs/');
    expect(converted.$defs).toBeDefined();
  });

  it.each([
    [{ allOf: [{ type: 'string' }] }, /allOf cannot be expressed/],
    [{ not: {} }, /accepts no value/],
    [{ anyOf: [{ not: {} }] }, /no alternative/],
    [{ type: 'object', properties: { x: { not: { type: 'string' } } } }, /\$\.x: not cannot be expressed/],
  ])('refuses %j', (schema, message) => {
    expect(() => toGrammarJsonSchema(schema)).toThrow(message);
  });
});
