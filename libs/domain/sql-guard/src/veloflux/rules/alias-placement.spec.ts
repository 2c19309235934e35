import { errorsOf } from '../../__fixtures__/rule-harness';
import { aliasPlacement } from './alias-placement';

describe('alias-placement', () => {
  it('refuses an output alias in GROUP BY, HAVING and window arguments', () => {
    expect(
      errorsOf(
        aliasPlacement,
        "SELECT device_id AS d, count(*) FROM sensor_stream GROUP BY d, tumblingwindow('ss', 10)",
      ),
    ).toEqual([
      "alias 'd' cannot be used in GROUP BY (veloFlux supports aliases only in later SELECT items, WHERE and ORDER BY); repeat the expression instead",
    ]);
    expect(
      errorsOf(
        aliasPlacement,
        "SELECT count(*) AS n FROM sensor_stream GROUP BY tumblingwindow('ss', 10) HAVING n > 1",
      )[0],
    ).toMatch(/^alias 'n' cannot be used in HAVING/);
  });

  it('accepts aliases in WHERE and ORDER BY', () => {
    expect(
      errorsOf(aliasPlacement, 'SELECT temperature * 2 AS t2 FROM sensor_stream WHERE t2 > 1 ORDER BY t2'),
    ).toEqual([]);
  });
});
