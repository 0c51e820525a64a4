import { afterEach, describe, expect, it, vi } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { bodyResponse, fixtureBytes, replay, type Route } from "@/tests/kits/market-replay";
import { runScreen } from "./run";
import { ZScreenRequest } from "./schemas";

// A run whose universe is Eastmoney's market list (recorded replies through a stubbed fetch) plus the sample
// catalogue: the list's stocks have no recorded bars (Eastmoney's recorded "no data" reply), the sample's do.
// Read now, then unreadable: the second run screens the kept list and says how old it is.

withTempDatabase("screening-run", {
  LOG_LEVEL: "silent",
  MARKET_DATA_SOURCES: "eastmoney,sample",
  SAMPLE_LATENCY_MS: "0",
});

afterEach(() => {
  vi.unstubAllGlobals();
  setClock(null);
});

const KLINE_NO_DATA: Route = [
  (u) => u.pathname === "/api/qt/stock/kline/get",
  bodyResponse(fixtureBytes("eastmoney/kline-no-data-rc100.json")),
];
const LIST: Route = [
  (u) => u.pathname === "/api/qt/clist/get",
  bodyResponse(fixtureBytes("eastmoney/clist-sh-a-board-top20.jsonp.txt")),
];

const request = ZScreenRequest.parse({ market: "cn", strategy: "volume_surge", language: "en" });

describe("a queued run taken up again", () => {
  it("stores its run once under its id: a second run with that id answers the stored one", async () => {
    replay([KLINE_NO_DATA]);
    await db().screeningRun.deleteMany();
    const progress: number[] = [];
    const first = await runScreen(request, { runId: "task-1", onProgress: (p) => progress.push(p) });
    expect(first.run_id).toBe("task-1");
    expect(progress[0]).toBe(5);
    expect(progress.at(-1)).toBe(95);
    const again = await runScreen(request, { runId: "task-1" });
    expect(again).toEqual(first);
    expect(await db().screeningRun.count({ where: { runId: "task-1" } })).toBe(1);
  });
});

describe("a screening run over the market list", () => {
  it("says where its universe came from, and falls back to the kept list with its age", async () => {
    await db().screeningSnapshot.deleteMany();
    const at = new Date("2026-12-01T08:00:00Z");
    setClock(() => at);
    replay([LIST, KLINE_NO_DATA]);
    const fresh = await runScreen(request);
    expect(fresh).toMatchObject({
      snapshot_source: "eastmoney+sample",
      snapshot_count: 27,
      bars_loaded_count: 7,
      snapshot_fallback_used: false,
      snapshot_stale_age_hours: null,
      quality_status: "degraded",
      quality_score: 26,
    });
    expect(fresh.warnings).toContain(
      "The universe is the 20 most-traded stocks of eastmoney's list (2384 in the market)",
    );
    expect(fresh.source_error_details).toHaveLength(20);
    expect(fresh.source_error_details[0]).toMatchObject({ source: "eastmoney", code: "no_data_for_code" });

    setClock(() => new Date(at.getTime() + 26 * 3_600_000));
    replay([KLINE_NO_DATA]);
    const later = await runScreen(request);
    expect(later).toMatchObject({
      snapshot_count: 27,
      snapshot_fallback_used: true,
      snapshot_stale_age_hours: 26,
      quality_status: "degraded",
    });
    expect(later.quality_reasons).toContain("The market list could not be read: the list kept 26 hours ago was used");
    expect(later.source_error_details[0]).toMatchObject({ source: "eastmoney", code: "market_list_unavailable" });
    expect(later.source_errors[0]).toMatch(/^eastmoney: cn list: /);
  });
});
