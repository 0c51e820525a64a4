import type { TMarket } from "@/lib/market/symbols";
import { offsetMinutes, wallClock } from "@/lib/time/wall-clock";
import { isTradingDay, previousTradingDay } from "./calendar";

// Market clocks. Which days trade comes from the exchange calendars (calendar.ts); the weekday helpers below
// remain for synthetic series (sample data, test bars) and for rough depth estimates.
export const MARKET_TIME_ZONE: Record<TMarket, string> = {
  cn: "Asia/Shanghai",
  hk: "Asia/Hong_Kong",
  us: "America/New_York",
};

// Local time after which the day's bar is final (HK's closing auction ends 16:10).
const CLOSE_MINUTES: Record<TMarket, number> = { cn: 15 * 60, hk: 16 * 60 + 10, us: 16 * 60 };

interface LocalParts {
  date: string;
  minutes: number;
}

function splitNumbers(text: string, separator: string): [number, number, number] {
  const [a = 0, b = 0, c = 0] = text.split(separator).map(Number);
  return [a, b, c];
}

export function localParts(at: Date, timeZone: string): LocalParts {
  const p = wallClock(at, timeZone);
  return { date: ymd(p.year, p.month, p.day), minutes: p.hour * 60 + p.minute };
}

function ymd(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** Wall-clock date and time in a zone → ISO 8601 with that zone's offset (DST-aware). */
export function zonedIso(date: string, time: string, timeZone: string): string {
  const [y, m, d] = splitNumbers(date, "-");
  const [hh, mm, ss] = splitNumbers(time, ":");
  const wall = Date.UTC(y, m - 1, d, hh, mm, ss);
  let offset = offsetMinutes(new Date(wall), timeZone);
  offset = offsetMinutes(new Date(wall - offset * 60000), timeZone);
  const sign = offset >= 0 ? "+" : "-";
  const abs = Math.abs(offset);
  const off = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  return `${date}T${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}:${String(ss).padStart(2, "0")}${off}`;
}

/** Unix seconds → ISO in the market's zone. */
export function unixToZonedIso(seconds: number, market: TMarket): string {
  const at = new Date(seconds * 1000);
  const tz = MARKET_TIME_ZONE[market];
  const p = wallClock(at, tz);
  return zonedIso(ymd(p.year, p.month, p.day), `${p.hour}:${p.minute}:${p.second}`, tz);
}

/** An ISO instant (a quote's time, often UTC) → ISO in the market's zone, so its date reads as the market's date. */
export function isoInMarketZone(iso: string, market: TMarket): string {
  return unixToZonedIso(Math.floor(Date.parse(iso) / 1000), market);
}

/** Unix seconds → the calendar date in the market's zone (a bar's trade date). */
export function unixToMarketDate(seconds: number, market: TMarket): string {
  return localParts(new Date(seconds * 1000), MARKET_TIME_ZONE[market]).date;
}

function dayNumber(date: string): number {
  const [y, m, d] = splitNumbers(date, "-");
  return Date.UTC(y, m - 1, d) / 86_400_000;
}

function fromDayNumber(n: number): string {
  return new Date(n * 86_400_000).toISOString().slice(0, 10);
}

export function isWeekday(date: string): boolean {
  const dow = new Date(dayNumber(date) * 86_400_000).getUTCDay();
  return dow !== 0 && dow !== 6;
}

export function previousWeekday(date: string): string {
  let n = dayNumber(date) - 1;
  while (!isWeekday(fromDayNumber(n))) n -= 1;
  return fromDayNumber(n);
}

export function nextWeekday(date: string): string {
  let n = dayNumber(date) + 1;
  while (!isWeekday(fromDayNumber(n))) n += 1;
  return fromDayNumber(n);
}

/** Weekdays d with from < d <= to. */
export function weekdaysBetween(from: string, to: string): number {
  let count = 0;
  for (let n = dayNumber(from) + 1; n <= dayNumber(to); n += 1) if (isWeekday(fromDayNumber(n))) count += 1;
  return count;
}

/** The session date in the market's zone at `at` (today there), whether or not it trades. */
export function marketDate(market: TMarket, at: Date): string {
  return localParts(at, MARKET_TIME_ZONE[market]).date;
}

/** The latest trading day whose session has closed at `at`: today after the close, else the trading day before. */
export function lastClosedTradingDay(market: TMarket, at: Date): string {
  const local = localParts(at, MARKET_TIME_ZONE[market]);
  if (isTradingDay(market, local.date) && local.minutes >= CLOSE_MINUTES[market]) return local.date;
  return previousTradingDay(market, local.date);
}

/** The latest trading day that has started trading data at `at` (today from midnight on a trading day). */
export function latestTradingDay(market: TMarket, at: Date): string {
  const today = marketDate(market, at);
  return isTradingDay(market, today) ? today : previousTradingDay(market, today);
}

/** The instant a session's bar becomes final: `date` at the market's close, in the market's zone. */
export function sessionCloseIso(market: TMarket, date: string): string {
  const minutes = CLOSE_MINUTES[market];
  const time = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}:00`;
  return zonedIso(date, time, MARKET_TIME_ZONE[market]);
}
