import * as chrono from 'chrono-node';
import type { TimeUnit } from '@nl2p/query-plan';
import { numberOf, singular, type Token } from './text';
import type { TimeGroupLink, TimeRangeLink } from './types';

const UNITS: Record<string, TimeUnit> = {
  second: 'second',
  sec: 'second',
  s: 'second',
  minute: 'minute',
  min: 'minute',
  hour: 'hour',
  hr: 'hour',
  h: 'hour',
  day: 'day',
  week: 'week',
  wk: 'week',
  month: 'month',
  quarter: 'quarter',
  year: 'year',
  yr: 'year',
};
const ADVERBS: Record<string, TimeUnit> = {
  hourly: 'hour',
  daily: 'day',
  nightly: 'day',
  weekly: 'week',
  monthly: 'month',
  quarterly: 'quarter',
  yearly: 'year',
  annually: 'year',
  annual: 'year',
};
const PERIOD_NOUNS = new Set(['bucket', 'window', 'interval', 'period', 'bin', 'slot', 'chunk', 'block', 'step']);
const SLIDING = new Set(['sliding', 'rolling', 'moving']);

/** `hours`, `10-minute` → hour/minute; a lone `s`/`h` only when glued to a number (`10s`). */
export function unitOf(t: Token | undefined, glued = false): TimeUnit | null {
  if (!t || t.kind !== 'word') return null;
  const w = singular(t.norm);
  if ((w === 's' || w === 'h' || w === 'min' || w === 'sec') && !glued)
    return w === 'min' || w === 'sec' ? UNITS[w] : null;
  return UNITS[w] ?? null;
}

interface Found<T> {
  link: T;
  tokens: number[];
}

const range = (a: number, b: number) => Array.from({ length: Math.max(0, b - a) }, (_, k) => a + k);

/**
 * Time grouping: `per hour`, `daily`, `every 10 seconds`, `10-minute buckets`, `per 15 minutes`,
 * `sliding window of the last 30 seconds`, `windows of 100 readings`. On streams the grouping is
 * a window (tumbling unless said otherwise); on SQL targets a bucket.
 */
export function findTimeGroups(tokens: readonly Token[], streaming: boolean, text: string): Found<TimeGroupLink>[] {
  const out: Found<TimeGroupLink>[] = [];
  const taken = new Set<number>();
  const lower = text.toLowerCase();
  const asDate = /\bas (?:a |the )?(?:calendar )?dates?\b|\bday'?s date\b|\bthe date\b|\bwhich (?:day|date)\b/.test(
    lower,
  );
  const slidingSaid = tokens.some((t) => SLIDING.has(t.norm));
  const push = (start: number, end: number, link: Omit<TimeGroupLink, 'start' | 'end' | 'text' | 'asDate'>) => {
    if (range(start, end).some((k) => taken.has(k))) return;
    for (const k of range(start, end)) taken.add(k);
    out.push({
      link: {
        ...link,
        start,
        end,
        text: text.slice(tokens[start]?.start ?? 0, tokens[end - 1]?.end ?? 0),
        asDate: link.unit === 'day' && asDate,
      },
      tokens: range(start, end),
    });
  };
  const norm = (k: number) => tokens[k]?.norm ?? '';

  // Explicit windows first: they say the most.
  for (let i = 0; i < tokens.length; i++) {
    const w = norm(i);
    // sliding/rolling window of (the) (last) N units; N-unit sliding window
    if (SLIDING.has(w) || ((w === 'window' || w === 'windows') && slidingSaid)) {
      for (let j = i + 1; j < Math.min(tokens.length, i + 7); j++) {
        const n = numberOf(tokens[j]);
        const unit = unitOf(tokens[j + 1], tokens[j + 1]?.joined);
        if (n !== null && unit) {
          push(i, j + 2, { unit, size: n, window: streaming ? 'sliding' : null, hop: null });
          break;
        }
      }
      const n = numberOf(tokens[i - 2]);
      const unit = unitOf(tokens[i - 1], tokens[i - 1]?.joined);
      if (n !== null && unit) push(i - 2, i + 1, { unit, size: n, window: streaming ? 'sliding' : null, hop: null });
    }
    // hopping window of N units (advancing/every) M units
    if (w === 'hopping' || w === 'hop') {
      const nums: { n: number; unit: TimeUnit; at: number }[] = [];
      for (let j = i + 1; j < Math.min(tokens.length, i + 12) && nums.length < 2; j++) {
        const n = numberOf(tokens[j]);
        const unit = unitOf(tokens[j + 1], tokens[j + 1]?.joined);
        if (n !== null && unit) nums.push({ n, unit, at: j + 2 });
      }
      const [a, b] = nums;
      if (a && b && streaming) push(i, b.at, { unit: a.unit, size: a.n, window: 'hopping', hop: b.n });
    }
    // windows of N <things>: a count window when the things are not a time unit
    if ((w === 'window' || w === 'windows') && norm(i + 1) === 'of') {
      const n = numberOf(tokens[i + 2]);
      const next = tokens[i + 3];
      if (n !== null && next && next.kind === 'word' && !unitOf(next)) {
        push(i, i + 4, { unit: 'second', size: n, window: streaming ? 'count' : null, hop: null });
      }
    }
  }

  for (let i = 0; i < tokens.length; i++) {
    if (taken.has(i)) continue;
    const w = norm(i);
    const n = numberOf(tokens[i]);
    // N-unit buckets / windows / intervals (also "in 10 minute buckets")
    if (n !== null) {
      const unit = unitOf(tokens[i + 1], tokens[i + 1]?.joined);
      const noun = singular(norm(i + 2));
      if (unit && PERIOD_NOUNS.has(noun)) {
        push(i, i + 3, { unit, size: n, window: streaming ? 'tumbling' : null, hop: null });
        continue;
      }
    }
    if (w === 'every' || w === 'per' || w === 'each' || w === 'by' || w === 'in') {
      // every N units / per 15 minutes
      const n2 = numberOf(tokens[i + 1]);
      const unit2 = unitOf(tokens[i + 2], tokens[i + 2]?.joined);
      if (n2 !== null && unit2 && w !== 'in' && w !== 'by') {
        push(i, i + 3, { unit: unit2, size: n2, window: streaming ? 'tumbling' : null, hop: null });
        continue;
      }
      // every N readings (stream): a count window
      if (n2 !== null && streaming && w === 'every' && tokens[i + 2]?.kind === 'word' && !unit2) {
        push(i, i + 3, { unit: 'second', size: n2, window: 'count', hop: null });
        continue;
      }
      // per hour / each day / by month (not "in hours")
      const unit1 = unitOf(tokens[i + 1]);
      if (unit1 && w !== 'in' && !isPlural(tokens[i + 1])) {
        push(i, i + 2, { unit: unit1, size: 1, window: streaming ? 'tumbling' : null, hop: null });
        continue;
      }
      // in each hour / for every day: "in"/"for" before each/every is part of the same cue
    }
    const adverb = ADVERBS[w];
    if (adverb) {
      push(i, i + 1, { unit: adverb, size: 1, window: streaming ? 'tumbling' : null, hop: null });
      continue;
    }
    // which day / what hour: grouping by the unit, asked for its best one
    if ((w === 'which' || w === 'what') && unitOf(tokens[i + 1]) && !isPlural(tokens[i + 1])) {
      const unit = unitOf(tokens[i + 1]);
      if (unit) push(i + 1, i + 2, { unit, size: 1, window: streaming ? 'tumbling' : null, hop: null });
    }
  }
  // "over N-second windows" said twice ("over" + "windows") collapses into the first link.
  return dedupe(out);
}

function isPlural(t: Token | undefined): boolean {
  return !!t && singular(t.norm) !== t.norm;
}

function dedupe(found: Found<TimeGroupLink>[]): Found<TimeGroupLink>[] {
  const seen = new Set<string>();
  return found.filter((f) => {
    const key = `${f.link.unit}/${f.link.size}/${f.link.window ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ---- ranges ----------------------------------------------------------------------------------

interface Moment {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}
type Grain = 'year' | 'month' | 'day' | 'hour' | 'minute';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
export function formatMoment(m: Moment): string {
  const d = new Date(Date.UTC(m.year, m.month - 1, m.day, m.hour, m.minute, m.second));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

function add(m: Moment, grain: Grain | 'week' | 'second', n: number): Moment {
  const d = new Date(Date.UTC(m.year, m.month - 1, m.day, m.hour, m.minute, m.second));
  switch (grain) {
    case 'year':
      d.setUTCFullYear(d.getUTCFullYear() + n);
      break;
    case 'month':
      d.setUTCMonth(d.getUTCMonth() + n);
      break;
    case 'week':
      d.setUTCDate(d.getUTCDate() + 7 * n);
      break;
    case 'day':
      d.setUTCDate(d.getUTCDate() + n);
      break;
    case 'hour':
      d.setUTCHours(d.getUTCHours() + n);
      break;
    case 'minute':
      d.setUTCMinutes(d.getUTCMinutes() + n);
      break;
    case 'second':
      d.setUTCSeconds(d.getUTCSeconds() + n);
      break;
  }
  return fromDate(d);
}

function fromDate(d: Date): Moment {
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

function truncate(m: Moment, grain: Grain): Moment {
  return {
    year: m.year,
    month: grain === 'year' ? 1 : m.month,
    day: grain === 'year' || grain === 'month' ? 1 : m.day,
    hour: grain === 'hour' || grain === 'minute' ? m.hour : 0,
    minute: grain === 'minute' ? m.minute : 0,
    second: 0,
  };
}

interface Part {
  index: number;
  end: number;
  date: { year: number; month: number; day: number | null } | null;
  time: { hour: number; minute: number } | null;
}

function partOf(c: chrono.ParsedComponents, now: Moment): (Part['date'] & object) | null {
  const month = c.isCertain('month') ? c.get('month') : null;
  const year = c.isCertain('year') ? c.get('year') : null;
  const day = c.isCertain('day') ? c.get('day') : null;
  if (month === null && year === null) return null;
  return {
    year: year ?? now.year,
    month: month ?? 1,
    day: month === null ? null : day,
  };
}

const RELATIVE_UNITS: Record<string, Grain | 'week' | 'second'> = {
  second: 'second',
  minute: 'minute',
  hour: 'hour',
  day: 'day',
  week: 'week',
  month: 'month',
  year: 'year',
};

/**
 * Date and time ranges: `in February 2024`, `on 1 March 2024 between 12:00 and 18:00`,
 * `last 7 days`, `in 2024`, `since March 2024`. Half-open: `to` is the first moment after.
 */
export function findTimeRanges(
  tokens: readonly Token[],
  text: string,
  nowDate: Date,
  already: ReadonlySet<number> = new Set(),
): Found<TimeRangeLink>[] {
  const now = fromDate(nowDate);
  const out: Found<TimeRangeLink>[] = [];
  const taken = new Set<number>(already);
  const tokensIn = (from: number, to: number) => tokens.filter((t) => t.start >= from && t.end <= to).map((t) => t.i);
  const take = (idx: number[]) => idx.forEach((k) => taken.add(k));
  const link = (idx: number[], from: Moment | null, to: Moment | null): Found<TimeRangeLink> => {
    const s = Math.min(...idx);
    const e = Math.max(...idx) + 1;
    return {
      link: {
        start: s,
        end: e,
        text: text.slice(tokens[s]?.start ?? 0, tokens[e - 1]?.end ?? 0),
        from: from ? formatMoment(from) : null,
        to: to ? formatMoment(to) : null,
        hint: [],
      },
      tokens: idx,
    };
  };

  // Relative: last/past/previous (N) units, today, yesterday, this week/month/year.
  for (let i = 0; i < tokens.length; i++) {
    if (taken.has(i)) continue;
    const w = tokens[i]?.norm ?? '';
    if (w === 'last' || w === 'past' || w === 'previous') {
      const n = numberOf(tokens[i + 1]);
      const unitTok = n === null ? tokens[i + 1] : tokens[i + 2];
      const grain = RELATIVE_UNITS[singular(unitTok?.norm ?? '')];
      if (!grain || !unitTok) continue;
      // `the last week of February`: a week of that month, not the past seven days.
      if (tokens[unitTok.i + 1]?.norm === 'of') continue;
      const idx = range(i, unitTok.i + 1);
      if (tokens[i - 1]?.norm === 'the') idx.unshift(i - 1);
      if (['in', 'over', 'during', 'for', 'within'].includes(tokens[idx[0] - 1]?.norm ?? '')) idx.unshift(idx[0] - 1);
      if (n !== null) {
        out.push(link(idx, add(now, grain, -n), null));
      } else {
        // "last month" is the previous calendar month; "last hour" the past 60 minutes.
        const g: Grain = grain === 'week' || grain === 'second' ? 'day' : grain;
        const cal = grain === 'year' || grain === 'month' || grain === 'week' || grain === 'day';
        if (cal) {
          const start = grain === 'week' ? add(truncate(now, 'day'), 'day', -7) : add(truncate(now, g), g, -1);
          out.push(link(idx, start, grain === 'week' ? truncate(now, 'day') : truncate(now, g)));
        } else out.push(link(idx, add(now, grain, -1), null));
      }
      take(idx);
    } else if (w === 'today' || w === 'yesterday') {
      const start = add(truncate(now, 'day'), 'day', w === 'today' ? 0 : -1);
      out.push(link([i], start, add(start, 'day', 1)));
      take([i]);
    } else if (w === 'this') {
      const g = RELATIVE_UNITS[tokens[i + 1]?.norm ?? ''];
      if (g === 'month' || g === 'year' || g === 'day') {
        out.push(link([i, i + 1], truncate(now, g), null));
        take([i, i + 1]);
      }
    }
  }

  // Quarters and bare years: Q1 2024, in 2024.
  for (let i = 0; i < tokens.length; i++) {
    if (taken.has(i)) continue;
    const q = /^q([1-4])$/.exec(tokens[i]?.norm ?? '');
    const y = tokens[i + 1]?.kind === 'number' ? Number(tokens[i + 1]?.norm) : NaN;
    if (q && y >= 1900 && y < 2200) {
      const start: Moment = { year: y, month: (Number(q[1]) - 1) * 3 + 1, day: 1, hour: 0, minute: 0, second: 0 };
      const idx = [i, i + 1];
      if (['in', 'during', 'for', 'of'].includes(tokens[i - 1]?.norm ?? '')) idx.unshift(i - 1);
      out.push(link(idx, start, add(start, 'month', 3)));
      take(idx);
    }
  }

  // Numbers inside identifiers (`dev-01`, `TH-300`) are not hours or days: hide them from chrono.
  let masked = text;
  for (const t of tokens) {
    if (t.kind === 'number' && t.joined && tokens[t.i - 1]?.kind === 'word') {
      masked = masked.slice(0, t.start) + 'x'.repeat(t.end - t.start) + masked.slice(t.end);
    }
  }
  const parsed = chrono.parse(masked, { instant: nowDate, timezone: 0 });
  const parts: Part[] = [];
  for (const r of parsed) {
    const idx = tokensIn(r.index, r.index + r.text.length);
    if (!idx.length || idx.some((k) => taken.has(k))) continue;
    const date = partOf(r.start, now);
    const time = r.start.isCertain('hour')
      ? { hour: r.start.get('hour') ?? 0, minute: r.start.get('minute') ?? 0 }
      : null;
    // A month name alone must look like one ("in March", not the verb "may").
    if (
      date &&
      date.day === null &&
      !r.start.isCertain('year') &&
      !/^[A-Z]/.test(r.text.replace(/^(in|on|of|during)\s+/i, ''))
    )
      continue;
    if (!date && !time) continue;
    if (r.end) {
      const endDate = partOf(r.end, now) ?? date;
      const endTime = r.end.isCertain('hour')
        ? { hour: r.end.get('hour') ?? 0, minute: r.end.get('minute') ?? 0 }
        : null;
      const d0 = date ?? endDate;
      if (d0 && endDate) {
        const from = momentOf(d0, time);
        const to = endTime
          ? momentOf(endDate, endTime)
          : add(momentOf(endDate, null), endDate.day === null ? 'month' : 'day', 1);
        const all = withPreposition(tokens, idx, ['from', 'between']);
        out.push(link(all, from, to));
        take(all);
        continue;
      }
    }
    parts.push({ index: Math.min(...idx), end: Math.max(...idx) + 1, date, time });
  }

  // Combine what chrono found separately: a day and the times around it ("between 12:00 and 18:00
  // on 1 March 2024"), or two dates ("between 2024-01-01 and 2024-02-01").
  const dates = parts.filter((p) => p.date);
  const timed = parts.filter((p) => p.time);
  const used = new Set<Part>();
  const [a, b] = timed;
  if (a?.time && b?.time && joinedBy(tokens, a, b)) {
    const own = [a, b].find((p) => p.date?.day != null);
    const datePart = own ? null : dates.find((p) => p.date?.day != null && p !== a && p !== b);
    const d = own?.date ?? datePart?.date ?? { year: now.year, month: now.month, day: now.day };
    const span = [...range(a.index, b.end), ...(datePart ? range(datePart.index, datePart.end) : [])];
    const idx = withPreposition(tokens, span, ['between', 'from', 'on']);
    out.push(link(idx, momentOf(d, a.time), momentOf(d, b.time)));
    take(idx);
    used.add(a).add(b);
    if (datePart) used.add(datePart);
  }
  const remaining = dates.filter((p) => !used.has(p));
  if (remaining.length >= 2) {
    const [a, b] = remaining;
    if (a?.date && b?.date && joinedBy(tokens, a, b)) {
      const idx = withPreposition(tokens, range(a.index, b.end), ['between', 'from']);
      const to = b.time
        ? momentOf(b.date, b.time)
        : add(momentOf(b.date, null), b.date.day === null ? 'month' : 'day', 1);
      out.push(link(idx, momentOf(a.date, a.time), to));
      take(idx);
      used.add(a).add(b);
    }
  }
  // `the last week of February`: what chrono read in the week words belongs to the month's week.
  for (const p of dates) {
    if (!p.date || p.date.day !== null || !p.date.month || p.time || tokens[p.index - 1]?.norm !== 'of') continue;
    const week = weekOfMonth(tokens, p.index - 1);
    if (week) for (const q of dates) if (q !== p && q.index >= week.start && q.end <= p.index) used.add(q);
  }
  for (const p of dates) {
    if (used.has(p) || !p.date) continue;
    const grain: Grain = p.time ? 'minute' : p.date.day !== null ? 'day' : p.date.month ? 'month' : 'year';
    const start = momentOf(p.date, p.time);
    const end = p.time ? null : add(start, grain, 1);
    const prep = tokens[p.index - 1]?.norm ?? '';
    const idx = withPreposition(tokens, range(p.index, p.end), [
      'in',
      'on',
      'during',
      'for',
      'of',
      'since',
      'after',
      'before',
      'until',
      'from',
    ]);
    // `the first week of February 2024`: a week of the month (days 1–7, 8–14, …; `last`: its final 7).
    const week =
      prep === 'of' && p.date.day === null && p.date.month && !p.time ? weekOfMonth(tokens, p.index - 1) : null;
    if (week) {
      const from = week.last ? add(add(start, 'month', 1), 'day', -7) : add(start, 'day', 7 * week.n);
      out.push(link([...range(week.start, p.index), ...idx], from, add(from, 'day', 7)));
      take([...range(week.start, p.index), ...idx]);
      continue;
    }
    if (prep === 'since' || prep === 'from') out.push(link(idx, start, null));
    else if (prep === 'after') out.push(link(idx, end ?? start, null));
    else if (prep === 'before') out.push(link(idx, null, start));
    else if (prep === 'until') out.push(link(idx, null, end ?? start));
    else out.push(link(idx, start, end ?? add(start, 'minute', 1)));
    take(idx);
  }
  // A bare year: "in 2024".
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!t || taken.has(i) || t.kind !== 'number' || !/^(19|20)\d\d$/.test(t.norm)) continue;
    const prep = tokens[i - 1]?.norm ?? '';
    if (!['in', 'during', 'for', 'of', 'since'].includes(prep)) continue;
    const start: Moment = { year: Number(t.norm), month: 1, day: 1, hour: 0, minute: 0, second: 0 };
    out.push(link([i - 1, i], start, prep === 'since' ? null : add(start, 'year', 1)));
    take([i - 1, i]);
  }
  return out;
}

function momentOf(
  d: { year: number; month: number; day: number | null },
  t: { hour: number; minute: number } | null,
): Moment {
  return { year: d.year, month: d.month, day: d.day ?? 1, hour: t?.hour ?? 0, minute: t?.minute ?? 0, second: 0 };
}

/** Two parts read as a range: "X and Y", "X to Y", "X - Y", "X until Y". */
function joinedBy(tokens: readonly Token[], a: Part, b: Part): boolean {
  const between = tokens.slice(a.end, b.index).map((t) => t.norm);
  return between.length <= 2 && between.some((w) => ['and', 'to', 'until', 'till', '-', 'through', '–'].includes(w));
}

/** The span plus the preposition before it and the connective words inside it. */
function withPreposition(tokens: readonly Token[], idx: number[], preps: string[]): number[] {
  const s = Math.min(...idx);
  const e = Math.max(...idx);
  const all = range(s, e + 1);
  if (preps.includes(tokens[s - 1]?.norm ?? '')) all.unshift(s - 1);
  return all;
}

const WEEK_ORDINALS: Record<string, number> = {
  first: 0,
  '1st': 0,
  second: 1,
  '2nd': 1,
  third: 2,
  '3rd': 2,
  fourth: 3,
  '4th': 3,
};

/** `[the] first|second|third|fourth|last week` ending right before `of` at `ofAt`. */
function weekOfMonth(tokens: readonly Token[], ofAt: number): { n: number; last: boolean; start: number } | null {
  if (tokens[ofAt - 1]?.norm !== 'week') return null;
  const ordinal = tokens[ofAt - 2]?.norm ?? '';
  const last = ordinal === 'last' || ordinal === 'final';
  const n = WEEK_ORDINALS[ordinal];
  if (!last && n === undefined) return null;
  const start = tokens[ofAt - 3]?.norm === 'the' ? ofAt - 3 : ofAt - 2;
  return {
    n: n ?? 0,
    last,
    start: ['in', 'during', 'for'].includes(tokens[start - 1]?.norm ?? '') ? start - 1 : start,
  };
}
