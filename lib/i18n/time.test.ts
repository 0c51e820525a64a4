import { describe, expect, it } from "vitest";
import { formatInstant, isValidTimeZone, resolveDisplayTimeZone, zoneLabel } from "./time";

// Every UI time in one display zone, with the zone's short label.

const WINTER = "2025-01-15T22:28:54.000Z";
const SUMMER = "2025-07-15T22:28:54.000Z";

describe("formatInstant", () => {
  it("writes Asia/Shanghai (no DST) as GMT+8 the same in winter and summer", () => {
    expect(formatInstant(WINTER, "Asia/Shanghai")).toBe("2025-01-16 06:28 GMT+8");
    expect(formatInstant(SUMMER, "Asia/Shanghai")).toBe("2025-07-16 06:28 GMT+8");
    expect(zoneLabel(new Date(WINTER), "Asia/Shanghai")).toBe("GMT+8");
    expect(zoneLabel(new Date(SUMMER), "Asia/Shanghai")).toBe("GMT+8");
  });

  it("writes America/New_York with its DST label: EST in winter, EDT in summer, and the wall time moves with it", () => {
    expect(formatInstant(WINTER, "America/New_York")).toBe("2025-01-15 17:28 EST");
    expect(formatInstant(SUMMER, "America/New_York")).toBe("2025-07-15 18:28 EDT");
    // Around the spring-forward jump (2025-03-09 02:00 local): one minute before and the first minute after.
    expect(formatInstant("2025-03-09T06:59:00Z", "America/New_York", { style: "time" })).toBe("01:59 EST");
    expect(formatInstant("2025-03-09T07:00:00Z", "America/New_York", { style: "time" })).toBe("03:00 EDT");
  });

  it("has the styles the UI uses: clock for task rows, short for dense tables, a bare date", () => {
    expect(formatInstant(WINTER, "Asia/Shanghai", { style: "clock" })).toBe("06:28:54 GMT+8");
    expect(formatInstant(WINTER, "Asia/Shanghai", { style: "time" })).toBe("06:28 GMT+8");
    expect(formatInstant(WINTER, "Asia/Shanghai", { style: "short" })).toBe("01-16 06:28 GMT+8");
    expect(formatInstant(WINTER, "Asia/Shanghai", { style: "date" })).toBe("2025-01-16");
    expect(formatInstant(WINTER, "Asia/Shanghai", { label: false })).toBe("2025-01-16 06:28");
    expect(formatInstant(new Date(WINTER), "UTC", { style: "clock" })).toBe("22:28:54 UTC");
  });

  it("labels offsets that are not whole hours, and midnight is 00 (not 24)", () => {
    expect(formatInstant("2025-01-15T18:30:00Z", "Asia/Kolkata")).toBe("2025-01-16 00:00 GMT+5:30");
  });

  it("returns an unreadable instant as given and falls back to Asia/Shanghai for an unknown zone", () => {
    expect(formatInstant("not a date", "Asia/Shanghai")).toBe("not a date");
    expect(formatInstant(WINTER, "Mars/Olympus")).toBe("2025-01-16 06:28 GMT+8");
  });
});

describe("resolveDisplayTimeZone (the dsa_tz cookie)", () => {
  it("uses the service zone without a cookie, with 'service', and with a value that is not a zone", () => {
    for (const value of [undefined, null, "", "service", "Mars/Olympus", "%E0%A4%A", "x".repeat(100)]) {
      expect(resolveDisplayTimeZone(value, "Asia/Shanghai")).toEqual({
        choice: "service",
        zone: "Asia/Shanghai",
        serviceZone: "Asia/Shanghai",
      });
    }
  });

  it("uses the browser's zone stored by the 'local' choice, encoded or not", () => {
    expect(resolveDisplayTimeZone("America/New_York", "Asia/Shanghai")).toEqual({
      choice: "local",
      zone: "America/New_York",
      serviceZone: "Asia/Shanghai",
    });
    expect(resolveDisplayTimeZone("America%2FNew_York", "Asia/Shanghai").zone).toBe("America/New_York");
    expect(resolveDisplayTimeZone("UTC", "Europe/Berlin")).toEqual({
      choice: "local",
      zone: "UTC",
      serviceZone: "Europe/Berlin",
    });
  });

  it("accepts only real zone names", () => {
    expect(isValidTimeZone("Asia/Shanghai")).toBe(true);
    expect(isValidTimeZone("Etc/GMT-8")).toBe(true);
    expect(isValidTimeZone("Nowhere/City")).toBe(false);
    expect(isValidTimeZone(" ")).toBe(false);
    expect(isValidTimeZone(42)).toBe(false);
  });
});
