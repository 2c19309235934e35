import { contractGrounding, errorsOf } from '../../__fixtures__/rule-harness';
import { unknownColumns } from './unknown-columns';

describe('unknown-columns', () => {
  it('reports a case mismatch first, then near misses, with the available columns', () => {
    expect(errorsOf(unknownColumns, 'SELECT Temperature FROM sensor_stream')).toEqual([
      "unknown column 'Temperature' in stream 'sensor_stream'; did you mean 'temperature'? (column names are case-sensitive); available columns: device_id, temperature, humidity, ts",
    ]);
    expect(errorsOf(unknownColumns, 'SELECT temp FROM sensor_stream')[0]).toMatch(
      /^unknown column 'temp' in stream 'sensor_stream'; did you mean 'temperature'\?/,
    );
  });

  it('explains double quotes around what was meant as a string, once per name', () => {
    const errors = errorsOf(unknownColumns, 'SELECT * FROM sensor_stream WHERE device_id = "abc" OR device_id = "abc"');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("write a string literal in single quotes: 'abc'");
  });

  it('accepts columns, the stream qualifier, aliases, and skips the check without columns', () => {
    expect(errorsOf(unknownColumns, 'SELECT s.temperature AS t, t + 1 AS u FROM sensor_stream s WHERE t > 1')).toEqual(
      [],
    );
    expect(
      errorsOf(
        unknownColumns,
        'SELECT anything FROM sensor_stream',
        contractGrounding('sensor_stream', { columns: [] }),
      ),
    ).toEqual([]);
  });
});
