/** A moment of the calendar, in UTC, and the arithmetic the range parsers need. */
export interface Moment {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}
export type Grain = 'year' | 'month' | 'day' | 'hour' | 'minute';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function formatMoment(m: Moment): string {
  const d = new Date(Date.UTC(m.year, m.month - 1, m.day, m.hour, m.minute, m.second));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

export function add(m: Moment, grain: Grain | 'week' | 'second', n: number): Moment {
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

export function fromDate(d: Date): Moment {
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

export function truncate(m: Moment, grain: Grain): Moment {
  return {
    year: m.year,
    month: grain === 'year' ? 1 : m.month,
    day: grain === 'year' || grain === 'month' ? 1 : m.day,
    hour: grain === 'hour' || grain === 'minute' ? m.hour : 0,
    minute: grain === 'minute' ? m.minute : 0,
    second: 0,
  };
}

export function momentOf(
  d: { year: number; month: number; day: number | null },
  t: { hour: number; minute: number } | null,
): Moment {
  return { year: d.year, month: d.month, day: d.day ?? 1, hour: t?.hour ?? 0, minute: t?.minute ?? 0, second: 0 };
}
