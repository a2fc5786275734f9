/**
 * The day and the month a spending limit counts, in the user's time zone: a day starts at the first
 * instant whose local date is that day (local midnight, or the end of a daylight-saving jump that
 * skipped it), a month on its first day. Found by asking Intl for the local date, never by adding
 * 24 hours: a day of a DST change is 23 or 25 hours long.
 */

export interface Period {
  /** First instant of the period (milliseconds since the epoch). */
  start: number;
  /** First instant of the next one: when the period's limit resets. */
  end: number;
}

/** An IANA time zone name; undefined: the process's own (the user's). */
export type TimeZone = string | undefined;

interface LocalDate {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: TimeZone): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' });
    formatters.set(key, format);
  }
  return format;
}

export function localDate(at: number, timeZone: TimeZone): LocalDate {
  const parts = formatter(timeZone).formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

function dateKey({ year, month, day }: LocalDate): number {
  return year * 10_000 + month * 100 + day;
}

/** Normalises an overflowing day or month (the 32nd of January is the 1st of February). */
function normalised(year: number, month: number, day: number): LocalDate {
  const date = new Date(Date.UTC(year, month - 1, day));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** Every zone's offset lies within ±15 hours of UTC: the day's first instant is in this range around its UTC midnight. */
const SEARCH_MS = 15 * 3_600_000;

/** The first instant whose local date is `date` or later (binary search, to the millisecond). */
export function startOfLocalDate(date: LocalDate, timeZone: TimeZone): number {
  const target = dateKey(date);
  const utcMidnight = Date.UTC(date.year, date.month - 1, date.day);
  let before = utcMidnight - SEARCH_MS; // local date earlier than the target
  let atOrAfter = utcMidnight + SEARCH_MS; // local date the target or later
  while (atOrAfter - before > 1) {
    const middle = Math.floor((before + atOrAfter) / 2);
    if (dateKey(localDate(middle, timeZone)) >= target) atOrAfter = middle;
    else before = middle;
  }
  return atOrAfter;
}

export function dayPeriod(at: number, timeZone: TimeZone): Period {
  const { year, month, day } = localDate(at, timeZone);
  return { start: startOfLocalDate({ year, month, day }, timeZone), end: startOfLocalDate(normalised(year, month, day + 1), timeZone) };
}

export function monthPeriod(at: number, timeZone: TimeZone): Period {
  const { year, month } = localDate(at, timeZone);
  return { start: startOfLocalDate({ year, month, day: 1 }, timeZone), end: startOfLocalDate(normalised(year, month + 1, 1), timeZone) };
}
