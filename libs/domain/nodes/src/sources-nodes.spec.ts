import { streamAndTableSentence, streamsNamedIn } from './sources-nodes';

const STREAMS = [
  { stream: 'sensor_stream', engine: 'veloFlux' },
  { stream: 'orders', engine: 'veloFlux' },
];
const TABLES = ['shop.orders', 'shop.sensor_readings', 'crm.devices'];

describe('a request over sources that names a stream', () => {
  it('finds a stream named as written or spelled out, never a word that only resembles one', () => {
    expect(streamsNamedIn('average temperature of sensor_stream per site', STREAMS, TABLES)).toEqual([STREAMS[0]]);
    expect(streamsNamedIn('Join the sensor stream with devices', STREAMS, TABLES)).toEqual([STREAMS[0]]);
    expect(streamsNamedIn('average temperature per sensor per site', STREAMS, TABLES)).toEqual([]);
    expect(streamsNamedIn('sensor_streams per site', STREAMS, TABLES)).toEqual([]);
  });

  it('takes a name a source table also has for that table', () => {
    expect(streamsNamedIn('how many orders per country', STREAMS, TABLES)).toEqual([]);
  });

  it('says in a sentence that a stream and a table cannot be combined yet, and what to do instead', () => {
    expect(streamAndTableSentence([STREAMS[0]])).toBe(
      'This request reads the veloFlux stream sensor_stream, and a question over the SQL sources cannot read veloFlux streams yet: veloFlux stays single-source, so a stream is never combined with a table. Ask about sensor_stream in a session on the veloFlux target, or ask here about the tables only.',
    );
  });
});
