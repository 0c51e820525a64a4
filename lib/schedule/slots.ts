import { localParts, zonedIso } from "@/lib/market/market-time";

// The daily slot is a wall-clock time in the service time zone. A slot is named by its local date and time
// ("2026-11-23 18:00"): that name is the unique key of its run, so a restart or a second process finds the slot
// already taken. DST: zonedIso resolves a wall time that a spring-forward skips to the offset after the change.

export interface Slot {
  key: string;
  at: Date;
}

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** "9:30" → "09:30"; anything that is not a valid HH:MM → null (the schedule is then off). */
export function parseSlotTime(text: string): string | null {
  const match = TIME.exec(text.trim());
  return match ? `${match[1]!.padStart(2, "0")}:${match[2]}` : null;
}

function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

function slotOn(date: string, time: string, timeZone: string): Slot {
  return { key: `${date} ${time}`, at: new Date(zonedIso(date, `${time}:00`, timeZone)) };
}

/** The latest slot at or before `at` (today's, or yesterday's when today's is still ahead). */
export function latestSlot(at: Date, time: string, timeZone: string): Slot {
  const today = localParts(at, timeZone).date;
  const slot = slotOn(today, time, timeZone);
  return slot.at.getTime() <= at.getTime() ? slot : slotOn(addDays(today, -1), time, timeZone);
}

/** The first slot after `at`. */
export function nextSlot(at: Date, time: string, timeZone: string): Slot {
  const today = localParts(at, timeZone).date;
  const slot = slotOn(today, time, timeZone);
  return slot.at.getTime() > at.getTime() ? slot : slotOn(addDays(today, 1), time, timeZone);
}

/** The slot due at `at`: the latest one, if it began no more than `catchUpMinutes` ago (at least one minute). */
export function dueSlot(at: Date, time: string, timeZone: string, catchUpMinutes: number): Slot | null {
  const slot = latestSlot(at, time, timeZone);
  const lateMs = at.getTime() - slot.at.getTime();
  return lateMs <= Math.max(catchUpMinutes, 1) * 60_000 ? slot : null;
}
