import { errorsOf } from '../../__fixtures__/rule-harness';
import { setOperations } from './set-operations';

describe('set-operations', () => {
  it.each(['UNION', 'UNION ALL', 'INTERSECT', 'EXCEPT'])('refuses %s and says to combine conditions instead', (op) => {
    const errors = errorsOf(
      setOperations,
      `SELECT device_id FROM sensor_stream ${op} SELECT device_id FROM sensor_stream`,
    );
    expect(errors).toEqual([
      expect.stringMatching(new RegExp(`^${op.split(' ')[0]} is not supported by veloFlux.*OR in WHERE`)),
    ]);
  });

  it('accepts the single SELECT with OR', () => {
    expect(
      errorsOf(setOperations, "SELECT device_id FROM sensor_stream WHERE device_id = 'a' OR device_id = 'b'"),
    ).toEqual([]);
  });

  it('ignores the words inside strings and parentheses', () => {
    expect(errorsOf(setOperations, "SELECT concat(device_id, 'union') FROM sensor_stream")).toEqual([]);
  });
});
