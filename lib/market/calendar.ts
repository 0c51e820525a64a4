// chinese-days is CommonJS without named-export hints: its default export is the module (Node ESM, tsx, Next).
import chineseDays from "chinese-days";
import Holidays from "date-holidays";
import { isHoliday as isNyseHoliday } from "nyse-holidays";
import type { TMarket } from "@/lib/market/symbols";

// Exchange calendars from maintained packages:
//   SSE/SZSE: closed on weekends and on the State Council's public holidays (chinese-days). The weekend days
//     worked in lieu of a holiday are workdays for offices but not for the exchanges, so only weekday
//     holidays close them.
//   HKEX: closed on weekends and Hong Kong's general holidays (date-holidays, region HK).
//   NYSE: closed on weekends and on the NYSE holidays (nyse-holidays, rule based, any year).
// Half days (Christmas Eve in Hong Kong, the day after Thanksgiving in New York) are trading days here: none
// of the packages records them, and a shortened session still closes with a daily bar.

const hongKong = new Holidays("HK");

function weekday(date: string): boolean {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day !== 0 && day !== 6;
}

function holidayIn(market: TMarket, date: string): boolean {
  if (market === "cn") return chineseDays.isHoliday(date);
  if (market === "us") return isNyseHoliday(new Date(`${date}T12:00:00Z`));
  // date-holidays reads a Date in the region's own zone: noon Hong Kong time is safely inside the day.
  const found = hongKong.isHoliday(new Date(`${date}T04:00:00Z`));
  return Array.isArray(found) && found.some((h) => h.type === "public" || h.type === "bank");
}

const memo = new Map<string, boolean>();

/** The market's exchange trades on this local date (YYYY-MM-DD). */
export function isTradingDay(market: TMarket, date: string): boolean {
  const key = `${market}:${date}`;
  let open = memo.get(key);
  if (open === undefined) {
    open = weekday(date) && !holidayIn(market, date);
    memo.set(key, open);
  }
  return open;
}

function shift(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function previousTradingDay(market: TMarket, date: string): string {
  let day = shift(date, -1);
  while (!isTradingDay(market, day)) day = shift(day, -1);
  return day;
}

export function nextTradingDay(market: TMarket, date: string): string {
  let day = shift(date, 1);
  while (!isTradingDay(market, day)) day = shift(day, 1);
  return day;
}
