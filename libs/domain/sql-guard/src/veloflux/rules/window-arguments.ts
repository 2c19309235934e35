import { VELOFLUX_WINDOWS } from '../../keywords';
import { isSymbol, isWord, type Token } from '../../lexer';
import { compactText, isWordBy, splitItems } from '../../structure';
import type { Call, VelofluxQuery } from '../query';
import type { VelofluxRule } from '../rule';
import { windowExample } from '../wording';
import type { Findings } from '../../findings';

const UNIT_SECONDS: Record<string, number> = { mm: 60, mi: 60, hh: 3600, dd: 86400 };
const UNIT_NAMES: Record<string, string> = { mm: 'minute(s)', mi: 'minute(s)', hh: 'hour(s)', dd: 'day(s)' };

/**
 * The arguments of a window in GROUP BY: how many, the time unit (only 'ss'), unsigned integer
 * lengths, and OVER (statewindow only, PARTITION BY only). A window written elsewhere is left to
 * window-placement: it has to move anyway.
 */
export const windowArguments: VelofluxRule = {
  id: 'window-arguments',
  check(q, out) {
    for (const call of q.calls) {
      if (!VELOFLUX_WINDOWS.has(call.name) || call.clause !== 'group' || q.s.depth[call.index] !== 0) continue;
      if (call.close < 0) continue;
      checkArguments(q, call, out);
      checkOver(q, call, out);
    }
  },
};

function checkArguments(q: VelofluxQuery, call: Call, out: Findings): void {
  const { toks, s } = q;
  const { name } = call;
  const args = splitItems(s, call.open + 1, call.close, (s.depth[call.open] ?? 0) + 1);
  const argText = (k: number): string => {
    const r = args[k];
    return r ? compactText(toks, r[0], r[1]) : '';
  };
  const single = (k: number): Token | undefined => {
    const r = args[k];
    return r && r[1] - r[0] === 1 ? toks[r[0]] : undefined;
  };
  const isUint = (k: number): boolean => {
    const tok = single(k);
    return !!tok && tok.kind === 'number' && /^\d+$/.test(tok.text);
  };
  const lengthError = (k: number, what: string): void => {
    out.error(
      `${name} ${what} must be an unsigned integer literal, found '${argText(k)}'; write e.g. ${windowExample(name)}`,
      call.index,
    );
  };
  if (name === 'tumblingwindow' || name === 'slidingwindow') {
    const okCount = name === 'tumblingwindow' ? args.length === 2 : args.length === 2 || args.length === 3;
    if (!okCount) {
      out.error(
        name === 'tumblingwindow'
          ? `tumblingwindow requires 2 arguments: (time_unit, length), e.g. tumblingwindow('ss', 10); found ${args.length}`
          : `slidingwindow takes 2 or 3 arguments: ('ss', lookback[, lookahead]), e.g. slidingwindow('ss', 10); found ${args.length}`,
        call.index,
      );
    }
    const unit = single(0);
    if (args.length >= 1) {
      if (!unit || unit.kind !== 'string') {
        out.error(
          `${name} needs the time unit 'ss' as its first argument, found '${argText(0)}'; write ${windowExample(name)}`,
          call.index,
        );
      } else if (unit.value.toLowerCase() !== 'ss') {
        const factor = UNIT_SECONDS[unit.value.toLowerCase()];
        const len = single(1);
        const suggestion =
          factor && len?.kind === 'number' && /^\d+$/.test(len.text)
            ? `write ${name}('ss', ${Number(len.text) * factor}) for ${len.text} ${UNIT_NAMES[unit.value.toLowerCase()] ?? unit.value}`
            : `convert the length to seconds, e.g. ${name}('ss', 300) for 5 minutes`;
        out.error(
          `${name} accepts only the time unit 'ss' (seconds), found '${unit.value}'; ${suggestion}`,
          call.index,
        );
      }
    }
    if (args.length >= 2 && !isUint(1)) lengthError(1, 'length');
    if (args.length >= 3 && !isUint(2)) lengthError(2, 'lookahead');
  } else if (name === 'countwindow') {
    if (args.length !== 1) {
      out.error(`countwindow takes 1 argument, the row count, e.g. countwindow(100); found ${args.length}`, call.index);
    } else if (!isUint(0)) {
      lengthError(0, 'count');
    }
  } else if (name === 'statewindow' && args.length !== 2) {
    out.error(
      `statewindow takes 2 arguments: (open condition, emit condition), e.g. statewindow(a > 0, b = 1); found ${args.length}`,
      call.index,
    );
  }
}

function checkOver(q: VelofluxQuery, call: Call, out: Findings): void {
  const { toks, s } = q;
  const close = call.close;
  if (!isWord(toks[close + 1], 'over')) return;
  if (call.name !== 'statewindow') {
    out.error(`${call.name} does not take OVER; only statewindow accepts OVER (PARTITION BY …)`, close + 1);
    return;
  }
  if (!isSymbol(toks[close + 2], '(')) {
    out.error('statewindow OVER needs a parenthesized PARTITION BY list: OVER (PARTITION BY k1, k2)', close + 1);
    return;
  }
  const overClose = s.partner[close + 2] ?? -1;
  const inner = (s.depth[close + 2] ?? 0) + 1;
  let extra = false;
  for (let j = close + 3; j < overClose; j++) {
    if (s.depth[j] === inner && (isWordBy(toks, j, 'order') || isWord(toks[j], 'rows', 'range', 'groups')))
      extra = true;
  }
  if (!isWordBy(toks, close + 3, 'partition') || extra) {
    out.error(
      'statewindow OVER allows only PARTITION BY (no ORDER BY, no frame): OVER (PARTITION BY k1, k2)',
      close + 1,
    );
  }
}
