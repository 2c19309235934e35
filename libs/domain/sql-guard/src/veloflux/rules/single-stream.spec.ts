import { contractGrounding, errorsOf } from '../../__fixtures__/rule-harness';
import { singleStream } from './single-stream';

describe('single-stream', () => {
  it.each([
    'SELECT a.vin FROM vehicle a JOIN sensor_stream b ON a.vin = b.device_id',
    'SELECT vin FROM vehicle, sensor_stream',
    'SELECT vin FROM vehicle LEFT OUTER JOIN sensor_stream ON true',
  ])('refuses a second source: %s', (sql) => {
    expect(errorsOf(singleStream, sql, contractGrounding('vehicle'))).toEqual([
      'JOIN and several FROM sources are not supported by veloFlux: a pipeline reads exactly one stream; query a single stream (FROM vehicle) and drop the join',
    ]);
  });

  it('accepts one stream', () => {
    expect(errorsOf(singleStream, 'SELECT vin FROM vehicle v', contractGrounding('vehicle'))).toEqual([]);
  });
});
