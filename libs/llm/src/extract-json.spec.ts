import { extractJson, JsonExtractionError } from './extract-json';

describe('extractJson', () => {
  it('parses plain JSON, including non-object values', () => {
    expect(extractJson('{"a": 1}')).toEqual({ a: 1 });
    expect(extractJson('  [1, 2]\n')).toEqual([1, 2]);
  });

  it('unwraps a ```json code fence', () => {
    const text = 'Here you go:\n```json\n{"intent": "create", "tables": ["orders"]}\n```\nAnything else?';
    expect(extractJson(text)).toEqual({ intent: 'create', tables: ['orders'] });
  });

  it('unwraps a fence without a language tag', () => {
    expect(extractJson('```\n{"ok": true}\n```')).toEqual({ ok: true });
  });

  it('extracts the object from prose before and after it', () => {
    const text = 'Sure! The plan is {"steps": [{"n": 1}, {"n": 2}]} — let me know.';
    expect(extractJson(text)).toEqual({ steps: [{ n: 1 }, { n: 2 }] });
  });

  it('ignores braces and quotes inside JSON strings', () => {
    const text = 'Result: {"sql": "SELECT \'}\' AS x, \\"{\\" FROM t", "note": "{not nested}"} done';
    expect(extractJson(text)).toEqual({ sql: 'SELECT \'}\' AS x, "{" FROM t', note: '{not nested}' });
  });

  it('skips brace blocks in prose that are not JSON and takes the next top-level object', () => {
    const text = 'Fill in {placeholders} like this: {"name": "x", "inner": {"y": 2}}';
    expect(extractJson(text)).toEqual({ name: 'x', inner: { y: 2 } });
  });

  it('throws a clear error when there is no JSON at all', () => {
    expect(() => extractJson('I cannot help with that.')).toThrow(JsonExtractionError);
    expect(() => extractJson('I cannot help with that.')).toThrow(/no JSON object/);
  });

  it('throws on empty output', () => {
    expect(() => extractJson('   ')).toThrow(/empty/);
  });

  it('reports truncated output instead of returning a nested fragment', () => {
    expect(() => extractJson('{"a": {"b": 1}, "c": ')).toThrow(/never closed.*truncated/);
  });

  it('reports invalid JSON inside braces', () => {
    expect(() => extractJson("{'single': 'quotes'}")).toThrow(/not valid JSON/);
  });
});
