import { VELOFLUX_WINDOWS } from '../../keywords';
import { closeMatches } from '../../suggest';
import type { VelofluxRule } from '../rule';

/** Well-known names from other dialects and what veloFlux offers instead. */
const FUNCTION_HINTS: Record<string, string> = {
  approx_count_distinct: 'use ndv(x) for a distinct count',
  count_distinct: 'use ndv(x) for a distinct count',
  date_trunc: "bucket time with a window instead: GROUP BY tumblingwindow('ss', <seconds>)",
  time_bucket: "bucket time with a window instead: GROUP BY tumblingwindow('ss', <seconds>)",
  ifnull: 'use coalesce(a, b)',
  nvl: 'use coalesce(a, b)',
  char_length: 'use length(x)',
  len: 'use length(x)',
  substr: 'use substring(x, start, [length])',
  to_timestamp: 'use from_unix_time(x) for Unix epoch seconds (veloFlux cannot call cast())',
  to_date: 'use from_unix_time(x) for Unix epoch seconds (veloFlux cannot call cast())',
  stddev_pop: 'use stddev(x)',
  stddev_samp: 'use stddevs(x)',
  variance: 'use var(x) (or vars(x) for the sample variance)',
  mean: 'use avg(x)',
  row_number: 'veloFlux has no ranking functions; use acc_count(x) for a running count',
  date_part: 'use hour(ts), minute(ts), day_of_month(ts), month(ts) …',
  unix_timestamp: 'use tstamp() for the current time in milliseconds',
};

/** Windows other engines have and veloFlux does not, with the nearest it has. */
const FOREIGN_WINDOWS: Record<string, string> = {
  hoppingwindow:
    "veloFlux has no hoppingwindow; use slidingwindow('ss', <lookback>[, <lookahead>]) for overlapping windows or tumblingwindow('ss', <length>) for fixed ones, inside GROUP BY",
  sessionwindow:
    "veloFlux has no sessionwindow; use statewindow(<open condition>, <emit condition>) or tumblingwindow('ss', <length>), inside GROUP BY",
};

/** Every function called is in the engine's catalog; each unknown name is reported once. */
export const unknownFunctions: VelofluxRule = {
  id: 'unknown-functions',
  check(q, out) {
    const reported = new Set<string>();
    for (const call of q.calls) {
      const foreign = FOREIGN_WINDOWS[call.name];
      if (foreign) {
        out.error(foreign, call.index);
        continue;
      }
      if (VELOFLUX_WINDOWS.has(call.name) || call.qualified) continue;
      if (!q.catalog.checked || q.catalog.names.has(call.name) || reported.has(call.name)) continue;
      reported.add(call.name);
      const hint = FUNCTION_HINTS[call.name];
      const close = closeMatches(call.name, q.catalog.names);
      const parts = [`unknown function '${call.name}'`];
      if (hint) parts.push(hint);
      else if (close.length) parts.push(`did you mean ${close.map((c) => `${c}()`).join(' or ')}?`);
      else parts.push('it is not in the veloFlux function catalog');
      out.error(parts.join('; '), call.index);
    }
  },
};
