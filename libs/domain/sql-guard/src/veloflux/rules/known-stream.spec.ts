import { contractGrounding, errorsOf } from '../../__fixtures__/rule-harness';
import { knownStream } from './known-stream';

describe('known-stream', () => {
  it('names the case-sensitive match first, then near misses, then every known stream', () => {
    expect(errorsOf(knownStream, 'SELECT device_id FROM Sensor_Stream')).toEqual([
      "unknown stream 'Sensor_Stream'; did you mean 'sensor_stream'? (stream names are case-sensitive)",
    ]);
    expect(errorsOf(knownStream, 'SELECT device_id FROM sensor_strem')[0]).toMatch(
      /^unknown stream 'sensor_strem'; did you mean 'sensor_stream'\?; known streams: /,
    );
  });

  it('refuses another stream whose columns are unknown, and reads one whose columns are known', () => {
    expect(errorsOf(knownStream, 'SELECT vin FROM vehicle')).toEqual([
      "the query reads from 'vehicle' but was drafted against stream 'sensor_stream', whose columns are known; read FROM sensor_stream",
    ]);
    const withVehicle = contractGrounding('sensor_stream', {
      columnsByTable: { vehicle: [{ name: 'vin', data_type: 'string' }] },
    });
    expect(errorsOf(knownStream, 'SELECT vin FROM vehicle', withVehicle)).toEqual([]);
  });

  it('skips the check when no streams are known', () => {
    expect(
      errorsOf(knownStream, 'SELECT a FROM anything', contractGrounding('x', { streams: [], stream: '' })),
    ).toEqual([]);
  });
});
