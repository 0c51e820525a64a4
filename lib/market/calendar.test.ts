import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveMarketPhase } from "@/lib/analysis/engine/phase";
import { isTradingDay, nextTradingDay, previousTradingDay } from "./calendar";
import { lastClosedTradingDay, latestTradingDay } from "./market-time";

// Exchange calendars from maintained packages, on known days.

describe("exchange calendars", () => {
  it("SSE/SZSE: closed for the Spring Festival (2026-02-17) and on in-lieu weekend workdays; open the days around", () => {
    expect(isTradingDay("cn", "2026-02-17")).toBe(false);
    expect(isTradingDay("cn", "2026-02-13")).toBe(true);
    // 2026-02-14 is a Saturday worked in lieu by offices; the exchanges stay shut.
    expect(isTradingDay("cn", "2026-02-14")).toBe(false);
    expect(isTradingDay("cn", "2026-10-01")).toBe(false);
    expect(isTradingDay("hk", "2026-02-17")).toBe(false);
    expect(isTradingDay("us", "2026-02-17")).toBe(true);
  });

  it("NYSE: closed on Thanksgiving (2026-11-26), open the day after (a half day, read as a trading day)", () => {
    expect(isTradingDay("us", "2026-11-26")).toBe(false);
    expect(isTradingDay("us", "2026-11-27")).toBe(true);
    expect(isTradingDay("cn", "2026-11-26")).toBe(true);
    expect(nextTradingDay("us", "2026-11-25")).toBe("2026-11-27");
    expect(previousTradingDay("us", "2026-11-27")).toBe("2026-11-25");
  });

  it("HKEX: closed on Christmas (2026-12-25) and Boxing Day's holiday; NYSE closed on Christmas too", () => {
    expect(isTradingDay("hk", "2026-12-25")).toBe(false);
    expect(isTradingDay("us", "2026-12-25")).toBe(false);
    expect(isTradingDay("hk", "2026-12-24")).toBe(true);
    expect(isTradingDay("hk", "2026-12-28")).toBe(true);
  });

  it("the market clock follows the calendar: Thanksgiving evening's last closed US session is the day before", () => {
    const thanksgivingEvening = new Date("2026-11-26T23:00:00Z"); // 18:00 in New York
    expect(lastClosedTradingDay("us", thanksgivingEvening)).toBe("2026-11-25");
    expect(latestTradingDay("us", thanksgivingEvening)).toBe("2026-11-25");
    expect(lastClosedTradingDay("cn", new Date("2026-02-17T09:00:00Z"))).toBe("2026-02-13");
  });

  it("the analysis phase reads a holiday as non-trading, with no market open", () => {
    const midday = resolveMarketPhase({ market: "us", at: new Date("2026-11-26T17:00:00Z") });
    expect(midday).toMatchObject({ phase: "non_trading", is_trading_day: false, is_market_open_now: false });
    const springFestival = resolveMarketPhase({ market: "cn", at: new Date("2026-02-17T02:00:00Z") });
    expect(springFestival).toMatchObject({ phase: "non_trading", is_trading_day: false });
  });

  it("loads under plain Node ESM too (scripts and benches run lib code through tsx, not the bundler)", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-calendar-"));
    const file = path.join(dir, "probe.mts");
    fs.writeFileSync(
      file,
      `import { isTradingDay } from ${JSON.stringify(path.join(root, "lib/market/calendar.ts"))};\nconsole.log(isTradingDay("cn", "2026-02-17"), isTradingDay("us", "2026-11-26"), isTradingDay("hk", "2026-12-24"));\n`,
    );
    const run = spawnSync("npx", ["tsx", file], { cwd: root, encoding: "utf8" });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(run.stderr).not.toMatch(/SyntaxError|Error/);
    expect(run.stdout.trim()).toBe("false false true");
  }, 30_000);
});
