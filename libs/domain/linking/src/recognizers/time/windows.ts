import type { TimeUnit } from '@nl2p/query-plan';
import { numberOf } from '../../text';
import { pushGroup, type GroupParser, type GroupScan } from './group-scan';
import { unitOf } from './units';

const SLIDING = new Set(['sliding', 'rolling', 'moving']);

/**
 * Explicit windows: `sliding window of the last 30 seconds`, `30-second rolling window`,
 * `hopping window of 10 minutes every 5 minutes`, `windows of 100 readings` (a count window
 * when the things counted are not a time unit). A window only on streams; a bucket elsewhere.
 */
export const windows: GroupParser = (scan) => {
  const slidingSaid = scan.tokens.some((t) => SLIDING.has(t.norm));
  for (let i = 0; i < scan.tokens.length; i++) {
    const w = scan.tokens[i]?.norm ?? '';
    if (SLIDING.has(w) || ((w === 'window' || w === 'windows') && slidingSaid)) sliding(scan, i);
    if (w === 'hopping' || w === 'hop') hopping(scan, i);
    if ((w === 'window' || w === 'windows') && scan.tokens[i + 1]?.norm === 'of') countWindow(scan, i);
  }
};

/** sliding/rolling window of (the) (last) N units; N-unit sliding window. */
function sliding(scan: GroupScan, i: number): void {
  const { tokens, streaming } = scan;
  for (let j = i + 1; j < Math.min(tokens.length, i + 7); j++) {
    const n = numberOf(tokens[j]);
    const unit = unitOf(tokens[j + 1], tokens[j + 1]?.joined);
    if (n !== null && unit) {
      pushGroup(scan, i, j + 2, { unit, size: n, window: streaming ? 'sliding' : null, hop: null });
      break;
    }
  }
  const n = numberOf(tokens[i - 2]);
  const unit = unitOf(tokens[i - 1], tokens[i - 1]?.joined);
  if (n !== null && unit)
    pushGroup(scan, i - 2, i + 1, { unit, size: n, window: streaming ? 'sliding' : null, hop: null });
}

/** hopping window of N units (advancing/every) M units. */
function hopping(scan: GroupScan, i: number): void {
  const { tokens } = scan;
  const nums: { n: number; unit: TimeUnit; at: number }[] = [];
  for (let j = i + 1; j < Math.min(tokens.length, i + 12) && nums.length < 2; j++) {
    const n = numberOf(tokens[j]);
    const unit = unitOf(tokens[j + 1], tokens[j + 1]?.joined);
    if (n !== null && unit) nums.push({ n, unit, at: j + 2 });
  }
  const [a, b] = nums;
  if (a && b && scan.streaming) pushGroup(scan, i, b.at, { unit: a.unit, size: a.n, window: 'hopping', hop: b.n });
}

/** windows of N <things>: a count window when the things are not a time unit. */
function countWindow(scan: GroupScan, i: number): void {
  const n = numberOf(scan.tokens[i + 2]);
  const next = scan.tokens[i + 3];
  if (n !== null && next && next.kind === 'word' && !unitOf(next)) {
    pushGroup(scan, i, i + 4, { unit: 'second', size: n, window: scan.streaming ? 'count' : null, hop: null });
  }
}
