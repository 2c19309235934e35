import { contractGrounding, errorsOf, findingsOf } from '../../__fixtures__/rule-harness';
import { fromSource } from './from-source';

describe('from-source', () => {
  it('asks for FROM when there is none, naming the grounded stream', () => {
    expect(errorsOf(fromSource, 'SELECT 1')).toEqual([
      'the query has no FROM clause; veloFlux pipelines read one stream: SELECT … FROM sensor_stream',
    ]);
  });

  it('refuses a string, a dotted name and a quoted name, each with the plain name to write', () => {
    expect(errorsOf(fromSource, "SELECT device_id FROM 'sensor_stream'")).toEqual([
      'FROM must name a stream, not a string literal: write FROM sensor_stream without quotes',
    ]);
    expect(errorsOf(fromSource, 'SELECT device_id FROM db.sensor_stream')).toEqual([
      "FROM takes a plain stream name, found 'db.sensor_stream'",
    ]);
    expect(errorsOf(fromSource, 'SELECT device_id FROM "sensor_stream"')).toEqual([
      'do not quote the stream name in FROM: veloFlux keeps the quotes as part of the name; write FROM sensor_stream',
    ]);
  });

  it('refuses a subquery it cannot plan and warns about the one it plans over its stream', () => {
    expect(errorsOf(fromSource, 'SELECT a FROM (VALUES (1)) t')[0]).toMatch(
      /^subqueries are not supported by veloFlux/,
    );
    const planned = findingsOf(fromSource, 'SELECT device_id FROM (SELECT device_id FROM sensor_stream) t');
    expect(planned.errors).toEqual([]);
    expect(planned.warnings[0]).toMatch(
      /drops the subquery's column list; select from the stream directly: FROM sensor_stream$/,
    );
  });

  it('accepts a plain stream name with or without an alias', () => {
    expect(errorsOf(fromSource, 'SELECT s.device_id FROM sensor_stream AS s')).toEqual([]);
    expect(errorsOf(fromSource, 'SELECT device_id FROM sensor_stream', contractGrounding())).toEqual([]);
  });
});
