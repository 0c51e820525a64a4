import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { resolveMarketPhase } from "./phase";

afterEach(() => setClock(null));

// Auto-detection reads the injected clock; each instant is given in UTC with its local time noted.
function phaseAt(iso: string, market: "cn" | "hk" | "us") {
  setClock(() => new Date(iso));
  return resolveMarketPhase({ market });
}

describe("analysis_phase", () => {
  it("cn: premarket, intraday, lunch break, postmarket on the Shanghai clock", () => {
    expect(phaseAt("2026-11-19T01:00:00Z", "cn")).toMatchObject({
      phase: "premarket",
      minutes_to_open: 30,
      session_date: "2026-11-19",
    }); // 09:00
    expect(phaseAt("2026-11-19T02:00:00Z", "cn")).toMatchObject({
      phase: "intraday",
      is_market_open_now: true,
      minutes_to_close: 300,
    }); // 10:00
    expect(phaseAt("2026-11-19T04:00:00Z", "cn")).toMatchObject({
      phase: "intraday",
      is_lunch_break: true,
      is_market_open_now: false,
    }); // 12:00
    expect(phaseAt("2026-11-19T07:00:00Z", "cn")).toMatchObject({ phase: "postmarket", is_market_open_now: false }); // 15:00
    expect(phaseAt("2026-11-19T07:00:00Z", "cn").market_local_time).toBe("2026-11-19T15:00:00+08:00");
  });

  it("hk: the closing auction to 16:10 is still intraday", () => {
    expect(phaseAt("2026-11-19T08:05:00Z", "hk")).toMatchObject({ phase: "intraday", minutes_to_close: 5 }); // 16:05
    expect(phaseAt("2026-11-19T08:15:00Z", "hk").phase).toBe("postmarket"); // 16:15
    expect(phaseAt("2026-11-19T04:30:00Z", "hk").is_lunch_break).toBe(true); // 12:30
  });

  it("us: New York clock across DST (EDT in July, EST in November)", () => {
    expect(phaseAt("2026-07-15T13:00:00Z", "us").phase).toBe("premarket"); // 09:00 EDT
    expect(phaseAt("2026-07-15T13:30:00Z", "us").phase).toBe("intraday"); // 09:30 EDT
    expect(phaseAt("2026-11-19T14:00:00Z", "us").phase).toBe("premarket"); // 09:00 EST
    expect(phaseAt("2026-11-19T21:00:00Z", "us").phase).toBe("postmarket"); // 16:00 EST
    // 02:00 Friday in Shanghai is still Thursday evening in New York.
    expect(phaseAt("2026-11-19T18:00:00Z", "cn").session_date).toBe("2026-11-20");
    expect(phaseAt("2026-11-19T18:00:00Z", "us")).toMatchObject({ session_date: "2026-11-19", phase: "intraday" });
  });

  it("weekends are non_trading in every market", () => {
    for (const market of ["cn", "hk", "us"] as const) {
      expect(phaseAt("2026-11-21T15:00:00Z", market)).toMatchObject({
        phase: "non_trading",
        is_trading_day: false,
        minutes_to_open: null,
      });
    }
  });

  it("an explicit phase passes through; the clock facts stay and the mismatch is noted", () => {
    setClock(() => new Date("2026-11-21T03:00:00Z")); // Saturday
    const s = resolveMarketPhase({ market: "cn", requested: "intraday" });
    expect(s).toMatchObject({
      phase: "intraday",
      source: "explicit",
      requested_phase: "intraday",
      is_trading_day: false,
    });
    expect(s.warnings.some((w) => w.includes("differs"))).toBe(true);
    expect(resolveMarketPhase({ market: "cn", requested: "auto" })).toMatchObject({
      phase: "non_trading",
      source: "auto",
    });
  });
});
