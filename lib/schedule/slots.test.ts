import { describe, expect, it } from "vitest";
import { dueSlot, latestSlot, nextSlot, parseSlotTime } from "./slots";

const SH = "Asia/Shanghai";
const NY = "America/New_York";

describe("schedule slots", () => {
  it("parses HH:MM and rejects anything else", () => {
    expect(parseSlotTime("18:00")).toBe("18:00");
    expect(parseSlotTime(" 9:05 ")).toBe("09:05");
    expect(parseSlotTime("23:59")).toBe("23:59");
    for (const bad of ["24:00", "18:60", "1800", "18:00:00", "", "six"]) expect(parseSlotTime(bad)).toBeNull();
  });

  it("names the slot by its local date and time in the service zone", () => {
    // 10:30 UTC = 18:30 in Shanghai: today's 18:00 slot has begun.
    const slot = latestSlot(new Date("2026-11-23T10:30:00Z"), "18:00", SH);
    expect(slot.key).toBe("2026-11-23 18:00");
    expect(slot.at.toISOString()).toBe("2026-11-23T10:00:00.000Z");
  });

  it("takes yesterday's slot while today's is still ahead, and the next one after it", () => {
    const at = new Date("2026-11-23T09:59:00Z"); // 17:59 in Shanghai
    expect(latestSlot(at, "18:00", SH).key).toBe("2026-11-22 18:00");
    expect(nextSlot(at, "18:00", SH).key).toBe("2026-11-23 18:00");
    expect(nextSlot(new Date("2026-11-23T10:00:00Z"), "18:00", SH).key).toBe("2026-11-24 18:00");
  });

  it("is due from the slot until the catch-up window ends", () => {
    const slotAt = Date.parse("2026-11-23T10:00:00Z");
    expect(dueSlot(new Date(slotAt - 1000), "18:00", SH, 180)?.key).not.toBe("2026-11-23 18:00");
    expect(dueSlot(new Date(slotAt), "18:00", SH, 180)?.key).toBe("2026-11-23 18:00");
    expect(dueSlot(new Date(slotAt + 180 * 60_000), "18:00", SH, 180)?.key).toBe("2026-11-23 18:00");
    expect(dueSlot(new Date(slotAt + 180 * 60_000 + 1000), "18:00", SH, 180)).toBeNull();
    // 0 = on time only: the tick that sees the slot within its first minute runs it.
    expect(dueSlot(new Date(slotAt + 30_000), "18:00", SH, 0)?.key).toBe("2026-11-23 18:00");
    expect(dueSlot(new Date(slotAt + 61_000), "18:00", SH, 0)).toBeNull();
  });

  it("a slot just before midnight is caught up after it", () => {
    const at = new Date("2026-11-23T16:10:00Z"); // 00:10 on the 24th in Shanghai
    expect(dueSlot(at, "23:50", SH, 60)?.key).toBe("2026-11-23 23:50");
  });

  it("follows daylight saving time in the zone", () => {
    // New York: EDT (-04:00) on 2026-07-01, EST (-05:00) on 2026-12-01.
    expect(latestSlot(new Date("2026-07-01T23:00:00Z"), "18:00", NY).at.toISOString()).toBe("2026-07-01T22:00:00.000Z");
    expect(latestSlot(new Date("2026-12-01T23:30:00Z"), "18:00", NY).at.toISOString()).toBe("2026-12-01T23:00:00.000Z");
  });
});
