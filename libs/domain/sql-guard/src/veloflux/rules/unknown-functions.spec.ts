import { contractGrounding, errorsOf } from '../../__fixtures__/rule-harness';
import { unknownFunctions } from './unknown-functions';

describe('unknown-functions', () => {
  it('names the veloFlux function for a well-known foreign one', () => {
    expect(errorsOf(unknownFunctions, 'SELECT ifnull(temperature, 0) FROM sensor_stream')).toEqual([
      "unknown function 'ifnull'; use coalesce(a, b)",
    ]);
  });

  it('suggests near misses, else says it is not in the catalog; each name once', () => {
    expect(errorsOf(unknownFunctions, 'SELECT avgg(temperature), avgg(humidity) FROM sensor_stream')).toEqual([
      "unknown function 'avgg'; did you mean avg()?",
    ]);
    expect(errorsOf(unknownFunctions, 'SELECT zzqqx(temperature) FROM sensor_stream')).toEqual([
      "unknown function 'zzqqx'; it is not in the veloFlux function catalog",
    ]);
  });

  it('points hopping and session windows at the windows veloFlux has', () => {
    expect(
      errorsOf(unknownFunctions, "SELECT count(*) FROM sensor_stream GROUP BY hoppingwindow('ss', 10, 5)")[0],
    ).toMatch(/^veloFlux has no hoppingwindow; use slidingwindow/);
  });

  it('accepts catalog functions, windows, and everything when the catalog is empty', () => {
    expect(
      errorsOf(unknownFunctions, "SELECT avg(temperature) FROM sensor_stream GROUP BY tumblingwindow('ss', 10)"),
    ).toEqual([]);
    expect(
      errorsOf(
        unknownFunctions,
        'SELECT zzqqx(temperature) FROM sensor_stream',
        contractGrounding('sensor_stream', { functions: [] }),
      ),
    ).toEqual([]);
  });
});
