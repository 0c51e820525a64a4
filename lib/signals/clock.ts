import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";

/**
 * "Now" for decision signals: the service clock plus SIGNAL_CLOCK_OFFSET_SECONDS (a testing aid, 0 in
 * production), so API tests can age signals (lazy expiry, outcome windows) without waiting and without moving
 * the market-data clock.
 */
export function signalNow(): Date {
  const offset = getSettings().SIGNAL_CLOCK_OFFSET_SECONDS;
  const at = now();
  return offset === 0 ? at : new Date(at.getTime() + offset * 1000);
}
