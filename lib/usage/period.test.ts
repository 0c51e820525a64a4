import { describe, expect, it, vi } from "vitest";
import { dayWindow, periodWindow } from "./period";
import { addDays, firstOfNextMonth, isTimeZone, localDay, startOfLocalDay } from "@/lib/time/zoned-time";
import { offsetMinutes } from "@/lib/time/wall-clock";

const SH = "Asia/Shanghai";
const NY = "America/New_York";

describe("usage periods in the service time zone (docs/api.md §6)", () => {
  it("23:30 UTC on the 31st is already the 1st of the next month in Shanghai", () => {
    const at = new Date("2026-10-31T23:30:00Z");
    expect(localDay(at, SH)).toBe("2026-11-01");
    const month = periodWindow("month", at, SH);
    expect(month).toMatchObject({ fromDate: "2026-11-01", toDate: "2026-11-01" });
    expect(month.calledAt!.gte.toISOString()).toBe("2026-10-31T16:00:00.000Z");
    expect(month.calledAt!.lt.toISOString()).toBe("2026-11-30T16:00:00.000Z");
    // The same instant in UTC is still October.
    expect(periodWindow("month", at, "UTC")).toMatchObject({ fromDate: "2026-10-01", toDate: "2026-10-31" });
  });

  it("today runs from local midnight to the next local midnight", () => {
    const today = periodWindow("today", new Date("2026-11-22T04:32:11.784Z"), SH);
    expect(today).toMatchObject({ period: "today", fromDate: "2026-11-22", toDate: "2026-11-22" });
    expect(today.calledAt!.gte.toISOString()).toBe("2026-11-21T16:00:00.000Z");
    expect(today.calledAt!.lt.toISOString()).toBe("2026-11-22T16:00:00.000Z");
  });

  it("all has no bounds and leaves from_date to the first recorded call", () => {
    expect(periodWindow("all", new Date("2026-11-22T04:00:00Z"), SH)).toEqual({
      period: "all",
      timeZone: SH,
      fromDate: null,
      toDate: "2026-11-22",
      calledAt: undefined,
    });
  });

  it("December rolls over into January of the next year", () => {
    const month = periodWindow("month", new Date("2026-12-31T15:59:59.999Z"), SH);
    expect(month.fromDate).toBe("2026-12-01");
    expect(month.calledAt!.lt.toISOString()).toBe("2026-12-31T16:00:00.000Z");
    expect(firstOfNextMonth("2026-12-15")).toBe("2027-01-01");
    expect(addDays("2027-03-01", -1)).toBe("2027-02-28");
  });

  it("DST zones: local midnights move with the offset, and a day can last 23 hours", () => {
    expect(offsetMinutes(new Date("2026-07-01T12:00:00Z"), NY)).toBe(-240);
    expect(offsetMinutes(new Date("2026-01-15T12:00:00Z"), NY)).toBe(-300);
    // US DST starts 2026-03-08 at 02:00 local.
    expect(startOfLocalDay("2026-03-08", NY).toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(startOfLocalDay("2026-03-09", NY).toISOString()).toBe("2026-03-09T04:00:00.000Z");
    const march = periodWindow("month", new Date("2026-03-20T12:00:00Z"), NY);
    expect(march.calledAt!.gte.toISOString()).toBe("2026-03-01T05:00:00.000Z");
    expect(march.calledAt!.lt.toISOString()).toBe("2026-04-01T04:00:00.000Z");
  });

  it("the day window lists the last N local days, oldest first", () => {
    const w = dayWindow(3, new Date("2026-11-01T01:00:00Z"), SH);
    expect(w.days).toEqual(["2026-10-30", "2026-10-31", "2026-11-01"]);
    expect(w.starts[0]!.toISOString()).toBe("2026-10-29T16:00:00.000Z");
    expect(w.until.toISOString()).toBe("2026-11-01T16:00:00.000Z");
  });

  it("recognises IANA zones", () => {
    expect([isTimeZone(SH), isTimeZone("UTC"), isTimeZone("Mars/Olympus"), isTimeZone("")]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it("asks Intl about a zone name once (every request that reads the service zone asks again)", () => {
    const formats = vi.spyOn(Intl.DateTimeFormat.prototype, "formatToParts");
    try {
      expect([isTimeZone("Asia/Kolkata"), isTimeZone("Mars/Phobos")]).toEqual([true, false]);
      const asked = formats.mock.calls.length;
      expect([isTimeZone("Asia/Kolkata"), isTimeZone("Mars/Phobos")]).toEqual([true, false]);
      expect(formats.mock.calls.length).toBe(asked);
    } finally {
      formats.mockRestore();
    }
  });
});
