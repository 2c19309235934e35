import { errorsOf } from '../../__fixtures__/rule-harness';
import { selectAliases } from './select-aliases';

describe('select-aliases', () => {
  it("refuses an alias used twice, one named like an input column, and the planner's own names", () => {
    expect(errorsOf(selectAliases, 'SELECT avg(temperature) AS t, max(temperature) AS t FROM sensor_stream')).toEqual([
      "alias 't' is used twice; give every SELECT item a distinct alias",
    ]);
    expect(errorsOf(selectAliases, 'SELECT avg(temperature) AS temperature FROM sensor_stream')).toEqual([
      "alias 'temperature' collides with the input column 'temperature' (veloFlux rejects that); choose another alias such as 'temperature_value'",
    ]);
    expect(errorsOf(selectAliases, 'SELECT humidity col_1, ts AS __vf_ts FROM sensor_stream')).toEqual([
      "alias 'col_1' is reserved by veloFlux (no '__vf_' prefix, no 'col_<n>'); choose another alias",
      "alias '__vf_ts' is reserved by veloFlux (no '__vf_' prefix, no 'col_<n>'); choose another alias",
    ]);
  });

  it('accepts distinct new names', () => {
    expect(
      errorsOf(selectAliases, 'SELECT avg(temperature) AS avg_temp, device_id AS device FROM sensor_stream'),
    ).toEqual([]);
  });
});
