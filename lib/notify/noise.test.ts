import { describe, expect, it } from "vitest";
import { ZSettings } from "@/lib/settings/settings-schema";
import { asSeverity, holdReason, inQuietWindow, parseQuietHours } from "./noise";

const settings = (extra: Record<string, string>) => ZSettings.parse({ SERVICE_TIMEZONE: "Asia/Shanghai", ...extra });
// 2026-11-23 15:30 UTC = 23:30 in Shanghai = 10:30 in New York.
const LATE_SHANGHAI = new Date("2026-11-23T15:30:00Z");
const NOON_SHANGHAI = new Date("2026-11-23T04:00:00Z");

describe("notification noise control", () => {
  it("parses quiet hours, including windows across midnight; anything else is no window", () => {
    expect(parseQuietHours("23:00-07:00")).toEqual({ start: 1380, end: 420, text: "23:00-07:00" });
    expect(parseQuietHours(" 9:30 - 11:00 ")).toEqual({ start: 570, end: 660, text: "9:30 - 11:00" });
    for (const bad of ["", "23:00", "25:00-07:00", "23:00-23:00", "late night"])
      expect(parseQuietHours(bad)).toBeNull();
  });

  it("start is inclusive, end exclusive, on both kinds of window", () => {
    const night = parseQuietHours("23:00-07:00")!;
    expect([22 * 60 + 59, 23 * 60, 0, 6 * 60 + 59, 7 * 60].map((m) => inQuietWindow(m, night))).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
    const lunch = parseQuietHours("11:30-13:00")!;
    expect([11 * 60 + 29, 11 * 60 + 30, 12 * 60 + 59, 13 * 60].map((m) => inQuietWindow(m, lunch))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it("holds messages in quiet hours in the notification zone, except critical ones", () => {
    const quiet = settings({ NOTIFICATION_QUIET_HOURS: "23:00-07:00" });
    expect(holdReason("info", quiet, LATE_SHANGHAI)).toBe("quiet hours 23:00-07:00 (Asia/Shanghai)");
    expect(holdReason("error", quiet, LATE_SHANGHAI)).toContain("quiet hours");
    expect(holdReason("critical", quiet, LATE_SHANGHAI)).toBeNull();
    expect(holdReason("info", quiet, NOON_SHANGHAI)).toBeNull();
    // The same instant is 10:30 in New York.
    expect(
      holdReason(
        "info",
        settings({ NOTIFICATION_QUIET_HOURS: "23:00-07:00", NOTIFICATION_TIMEZONE: "America/New_York" }),
        LATE_SHANGHAI,
      ),
    ).toBeNull();
    // An unknown zone falls back to the service zone.
    expect(
      holdReason(
        "info",
        settings({ NOTIFICATION_QUIET_HOURS: "23:00-07:00", NOTIFICATION_TIMEZONE: "Mars/Olympus" }),
        LATE_SHANGHAI,
      ),
    ).toContain("Asia/Shanghai");
  });

  it("drops messages below the minimum severity; an unknown minimum sends all", () => {
    const warning = settings({ NOTIFICATION_MIN_SEVERITY: "Warning" });
    expect(holdReason("info", warning, NOON_SHANGHAI)).toBe("severity info below NOTIFICATION_MIN_SEVERITY warning");
    expect(holdReason("warning", warning, NOON_SHANGHAI)).toBeNull();
    expect(holdReason("critical", warning, NOON_SHANGHAI)).toBeNull();
    expect(holdReason("info", settings({ NOTIFICATION_MIN_SEVERITY: "loud" }), NOON_SHANGHAI)).toBeNull();
    expect(asSeverity(" CRITICAL ")).toBe("critical");
    expect(asSeverity("urgent")).toBeNull();
  });
});
