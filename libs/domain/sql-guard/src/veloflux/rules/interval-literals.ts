import type { VelofluxRule } from '../rule';
import { isColumnName } from '../query';

/**
 * INTERVAL literals do not exist (window lengths are plain seconds); and a column named `interval`
 * must be quoted, or the parser reads a literal (live engine: "No data source found in SELECT
 * statement").
 */
export const intervalLiterals: VelofluxRule = {
  id: 'interval-literals',
  check(q, out) {
    for (const { index: i, word } of q.keywords) {
      if (word !== 'interval') continue;
      const next = q.toks[i + 1];
      if (isColumnName(q.g, 'interval') && next?.kind !== 'string' && next?.kind !== 'number') {
        out.error(
          'a column named interval must be quoted in veloFlux ("interval"): written bare, the parser reads an INTERVAL literal (the engine answers No data source found in SELECT statement)',
          i,
        );
        continue;
      }
      out.error(
        "INTERVAL literals are not supported by veloFlux; window lengths are plain seconds, e.g. tumblingwindow('ss', 300) for 5 minutes",
        i,
      );
    }
  },
};
