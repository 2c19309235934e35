import { errorsOf } from '../../__fixtures__/rule-harness';
import { orderByStar } from './order-by-star';

describe('order-by-star', () => {
  it('refuses ORDER BY * and ORDER BY stream.* (parse errors on the live engine)', () => {
    expect(errorsOf(orderByStar, 'SELECT * FROM sensor_stream ORDER BY *')).toEqual([
      'ORDER BY cannot sort by * in veloFlux (the parser expects a column or an expression there); order by named columns or output aliases',
    ]);
    expect(errorsOf(orderByStar, 'SELECT * FROM sensor_stream s ORDER BY ts, s.*')[0]).toMatch(
      /^ORDER BY cannot sort by s\.\*/,
    );
  });

  it('accepts a product in ORDER BY and named columns', () => {
    expect(errorsOf(orderByStar, 'SELECT * FROM sensor_stream ORDER BY temperature * 2, device_id')).toEqual([]);
  });
});
