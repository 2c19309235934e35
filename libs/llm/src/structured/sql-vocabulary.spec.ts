import { isPlainSqlIdentifier, unknownSqlIdentifiers, type SqlVocabulary } from './sql-vocabulary';

const vocabulary: SqlVocabulary = {
  streams: ['sensor_stream', 'Weird Stream'],
  columns: ['device_id', 'temperature', 'ts'],
  functions: ['avg', 'time_bucket'],
};

describe('unknownSqlIdentifiers', () => {
  it('finds nothing in SQL built from the vocabulary', () => {
    const sql =
      "SELECT device_id, avg(temperature) AS t, time_bucket(INTERVAL '10 seconds', ts) AS w " +
      'FROM "Weird Stream" WHERE temperature > 30.5 -- a comment naming humidity\n' +
      "AND device_id <> 'it''s humidity' GROUP BY device_id, w ORDER BY t DESC LIMIT 10";
    expect(unknownSqlIdentifiers(sql, vocabulary)).toEqual([]);
  });

  it('lists each unknown name once, in order', () => {
    const sql = 'SELECT humidity, pressure, humidity FROM hacker_stream';
    expect(unknownSqlIdentifiers(sql, vocabulary)).toEqual(['humidity', 'pressure', 'hacker_stream']);
  });

  it('matches streams and columns exactly but functions and keywords in any case', () => {
    expect(unknownSqlIdentifiers('select AVG(Temperature) from SENSOR_STREAM', vocabulary)).toEqual([
      'Temperature',
      'SENSOR_STREAM',
    ]);
  });

  it('treats words that are not SQL keywords of the SELECT subset as unknown', () => {
    expect(unknownSqlIdentifiers('DROP TABLE sensor_stream', vocabulary)).toEqual(['DROP', 'TABLE']);
    expect(unknownSqlIdentifiers('SELECT 1; DELETE FROM sensor_stream', vocabulary)).toEqual(['DELETE']);
  });

  it('accepts extra dialect keywords', () => {
    expect(unknownSqlIdentifiers('SELECT temperature FROM sensor_stream EMIT CHANGES', vocabulary)).toEqual([
      'EMIT',
      'CHANGES',
    ]);
    expect(
      unknownSqlIdentifiers('SELECT temperature FROM sensor_stream EMIT CHANGES', {
        ...vocabulary,
        extraKeywords: ['emit', 'changes'],
      }),
    ).toEqual([]);
  });
});

describe('isPlainSqlIdentifier', () => {
  it.each([
    ['device_id', true],
    ['_x1', true],
    ['Weird Stream', false],
    ['1abc', false],
    ['a-b', false],
  ])('%s → %s', (name, plain) => {
    expect(isPlainSqlIdentifier(name)).toBe(plain);
  });
});
