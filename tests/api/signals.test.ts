import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZAnalysisResultResponse } from "@/lib/analysis/schemas";
import type { TDailyBar } from "@/lib/market";
import { createSampleProvider } from "@/lib/market/providers/sample";
import { OPERATIONS } from "@/lib/openapi/operations";
import {
  ZDecisionSignalItem,
  ZDecisionSignalListResponse,
  ZDecisionSignalMutationResponse,
  ZFeedbackItem,
  ZOutcomeListResponse,
  ZOutcomeRunResponse,
  ZOutcomeStatsResponse,
  type TDecisionSignalItem,
} from "@/lib/signals/schemas";
import { ZReassessResponse } from "@/lib/signals/reassess-schemas";
import { startTestServer, type TestServer } from "../setup/api-server";
import { analyzeRecord, cloneRecord } from "../setup/history-records";
import { openServerDatabase, type ServerDatabase } from "../setup/server-database";

// Both databases: lazy expiry and outcome windows are conditional writes and date filters in each dialect's SQL.
// Spec 3.2–3.4 and 4.5 over HTTP against a real server on sample market data. The signal clock is moved with
// the SIGNAL_CLOCK_OFFSET_SECONDS setting (through the config API, applied at once), so lazy expiry and outcome
// windows are tested without waiting; the market-data clock stays the real one.

let server: TestServer;
let database: ServerDatabase;

const DAY = 86_400_000;

function api(pathAndQuery: string, init: RequestInit = {}) {
  return fetch(`${server.baseUrl}/api/v1/decision-signals${pathAndQuery}`, init);
}

function send(method: string, pathAndQuery: string, body: unknown) {
  return api(pathAndQuery, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

async function json(res: Response, status: number): Promise<unknown> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text);
}

async function create(fields: Record<string, unknown>) {
  const body = {
    stock_code: "600519",
    market: "cn",
    source_type: "agent",
    trigger_source: "api-test",
    action: "buy",
    ...fields,
  };
  return ZDecisionSignalMutationResponse.parse(await json(await send("POST", "", body), 200));
}

async function getOne(id: number): Promise<TDecisionSignalItem> {
  return ZDecisionSignalItem.parse(await json(await api(`/${id}`), 200));
}

async function list(query: string) {
  return ZDecisionSignalListResponse.parse(await json(await api(`?${query}`), 200));
}

/** Moves the signal clock so that it reads `at` (drifting with real time from there). */
async function setSignalClock(at: Date | null): Promise<void> {
  const offset = at === null ? 0 : Math.round((at.getTime() - Date.now()) / 1000);
  const current = (await json(await fetch(`${server.baseUrl}/api/v1/system/config?include_schema=false`), 200)) as {
    config_version: string;
  };
  const res = await fetch(`${server.baseUrl}/api/v1/system/config`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      config_version: current.config_version,
      items: [{ key: "SIGNAL_CLOCK_OFFSET_SECONDS", value: String(offset) }],
    }),
  });
  await json(res, 200);
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A Monday at least five weeks back, 10:00 Shanghai (02:00 UTC): every 10-day window after it has closed. */
function pastMondayMorning(): Date {
  let ms = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - 35 * DAY;
  while (new Date(ms).getUTCDay() !== 1) ms -= DAY;
  return new Date(ms + 2 * 3600_000);
}

/** Weekdays after `day`, the first `n` of them (the sample data trades every weekday). */
function weekdaysAfter(day: string, n: number): string[] {
  const out: string[] = [];
  let ms = Date.parse(`${day}T00:00:00Z`);
  while (out.length < n) {
    ms += DAY;
    const dow = new Date(ms).getUTCDay();
    if (dow !== 0 && dow !== 6) out.push(isoDay(ms));
  }
  return out;
}

async function sampleBars(code: string, days: number): Promise<TDailyBar[]> {
  const provider = createSampleProvider({ latencyMs: () => 0 });
  return provider.dailyBars({ kind: "stock", market: "cn", code }, days, { signal: new AbortController().signal });
}

beforeAll(async () => {
  server = await startTestServer({ MARKET_DATA_SOURCES: "sample" });
  // The server's database (SQLite or PostgreSQL), for reads and writes the API cannot make.
  database = await openServerDatabase(server);
});

afterAll(async () => {
  await database?.close();
  await server?.stop();
});

describe("4.5 create: validation and defaults", () => {
  it("422 for missing or malformed fields; 400 for a price plan against the action", async () => {
    const missing = (await json(await send("POST", "", { stock_code: "600519" }), 422)) as { error: string };
    expect(missing.error).toBe("validation_error");
    await json(
      await send("POST", "", {
        stock_code: "600519",
        market: "jp",
        source_type: "agent",
        trigger_source: "t",
        action: "buy",
      }),
      422,
    );
    await json(
      await send("POST", "", {
        stock_code: "600519",
        market: "cn",
        source_type: "agent",
        trigger_source: "t",
        action: "buy",
        confidence: 1.5,
      }),
      422,
    );
    await json(
      await send("POST", "", {
        stock_code: "600519",
        market: "cn",
        source_type: "agent",
        trigger_source: "t",
        action: "buy",
        stop_loss: -1,
      }),
      422,
    );
    const plan = (await json(
      await send("POST", "", {
        stock_code: "600519",
        market: "cn",
        source_type: "agent",
        trigger_source: "t",
        action: "buy",
        entry_low: 100,
        entry_high: 110,
        stop_loss: 105,
      }),
      400,
    )) as { error: string; message: string };
    expect(plan.error).toBe("invalid_price_plan");
    const sellPlan = await send("POST", "", {
      stock_code: "600519",
      market: "cn",
      source_type: "agent",
      trigger_source: "t",
      action: "sell",
      entry_low: 100,
      entry_high: 110,
      target_price: 120,
    });
    expect(sellPlan.status).toBe(400);
  });

  it("3.2 (none) → active: defaults 3d and the close of the third trading session; created=true", async () => {
    // Signal clock on a Monday 10:00 Shanghai: sessions Mon, Tue, Wed → Wednesday 15:00 +08:00.
    const monday = pastMondayMorning();
    await setSignalClock(monday);
    try {
      const { item, created } = await create({
        stock_code: "600519.SH",
        stock_name: "贵州茅台",
        entry_low: 1400,
        entry_high: 1450,
        stop_loss: 1350,
        target_price: 1600,
      });
      expect(created).toBe(true);
      expect(item).toMatchObject({
        stock_code: "600519",
        market: "cn",
        status: "active",
        horizon: "3d",
        plan_quality: "complete",
      });
      expect(item.expires_at).toBe(`${isoDay(monday.getTime() + 2 * DAY)}T07:00:00.000Z`);
      const alert = await create({ action: "alert", market_phase: "intraday" });
      expect(alert.item.horizon).toBe("intraday");
      expect(alert.item.expires_at).toBe(`${isoDay(monday.getTime())}T07:00:00.000Z`);
      const swing = await create({ action: "hold", horizon: "swing" });
      expect(swing.item.expires_at).toBeNull();
    } finally {
      await setSignalClock(null);
    }
  });
});

describe("3.2 transitions", () => {
  it("decision_profile: stored on the item, a list filter (unknown = none), and profiles never deduplicate", async () => {
    const plain = await create({ stock_code: "601318", trace_id: "profile-trace-1" });
    const careful = await create({
      stock_code: "601318",
      trace_id: "profile-trace-1",
      decision_profile: "conservative",
    });
    expect(careful.created).toBe(true);
    expect(careful.item).toMatchObject({ decision_profile: "conservative" });
    expect(plain.item.decision_profile).toBeNull();
    const again = await create({ stock_code: "601318", trace_id: "profile-trace-1", decision_profile: "conservative" });
    expect(again).toMatchObject({ created: false, item: { id: careful.item.id } });
    const bold = await create({ stock_code: "601318", trace_id: "profile-trace-1", decision_profile: "aggressive" });
    expect(bold.created).toBe(true);

    const ids = async (query: string) =>
      ((await list(`stock_code=601318&trace_id=profile-trace-1&${query}`)) as { items: { id: number }[] }).items
        .map((i) => i.id)
        .sort((a, b) => a - b);
    expect(await ids("decision_profile=conservative")).toEqual([careful.item.id]);
    expect(await ids("decision_profile=unknown")).toEqual([plain.item.id]);
    expect(await ids("")).toEqual([plain.item.id, careful.item.id, bold.item.id].sort((a, b) => a - b));
    expect((await api("?decision_profile=reckless")).status).toBe(422);
    const bad = await send("POST", "", {
      stock_code: "601318",
      market: "cn",
      source_type: "agent",
      trigger_source: "api-test",
      action: "buy",
      decision_profile: "reckless",
    });
    expect(bad.status).toBe(422);
  });

  it("dedup: the same key returns the existing signal with created=false (code variants are one stock)", async () => {
    const first = await create({
      stock_code: "000858",
      trace_id: "dedup-trace-1",
      horizon: "5d",
      market_phase: "postmarket",
    });
    const again = await create({
      stock_code: "sz000858",
      trace_id: "dedup-trace-1",
      horizon: "5d",
      market_phase: "postmarket",
    });
    expect(again).toMatchObject({ created: false, item: { id: first.item.id, status: "active" } });
    // docs/api.md §4 relaxed match: without horizon and market_phase, against an active row.
    const relaxed = await create({
      stock_code: "000858",
      trace_id: "dedup-trace-1",
      horizon: "1d",
      market_phase: "intraday",
    });
    expect(relaxed).toMatchObject({ created: false, item: { id: first.item.id } });
    // Another action or another source is a new signal.
    expect((await create({ stock_code: "000858", trace_id: "dedup-trace-1", action: "hold" })).created).toBe(true);
    expect((await create({ stock_code: "000858", trace_id: "dedup-trace-2", horizon: "5d" })).created).toBe(true);
  });

  it("4.5 rule 4: parallel creates with one dedup key leave one row", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => create({ stock_code: "601318", source_report_id: 424242, action: "add" })),
    );
    expect(new Set(results.map((r) => r.item.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const rows = (await database.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM decision_signal WHERE source_report_id = 424242",
    ))!;
    expect(rows.n).toBe(1);
  });

  it("a new active signal invalidates the opposite side; a duplicate retry reruns the invalidation", async () => {
    const buy = await create({ stock_code: "300750", trace_id: "inv-buy" });
    const add = await create({ stock_code: "300750", action: "add" });
    const hold = await create({ stock_code: "300750", action: "hold" });
    // add is of buy's side: it supersedes it.
    expect((await getOne(buy.item.id)).metadata).toMatchObject({
      invalidated_by_signal_id: add.item.id,
      invalidated_reason: "superseded",
    });
    const sell = await create({ stock_code: "300750", action: "sell", trace_id: "inv-sell" });
    const after = await getOne(add.item.id);
    expect(after.status).toBe("invalidated");
    expect(after.metadata).toMatchObject({
      invalidated_by_signal_id: sell.item.id,
      invalidated_reason: "opposite_signal",
      previous_status: "active",
    });
    expect(typeof after.metadata?.invalidated_at).toBe("string");
    expect((await getOne(hold.item.id)).status).toBe("active");
    expect((await getOne(sell.item.id)).status).toBe("active");
    // An opposite signal left active (as if a crash interrupted the repair) is invalidated by a duplicate retry.
    const stray = await create({ stock_code: "300750", action: "buy" });
    expect((await getOne(sell.item.id)).status).toBe("invalidated");
    await database.run("UPDATE decision_signal SET status = 'active' WHERE id IN (?, ?)", sell.item.id, stray.item.id);
    const sellRetry = await create({ stock_code: "300750", action: "sell", trace_id: "inv-sell" });
    expect(sellRetry).toMatchObject({ created: false, item: { id: sell.item.id, status: "active" } });
    expect((await getOne(stray.item.id)).status).toBe("invalidated");
    expect(await list("stock_code=300750&status=active&action=buy")).toMatchObject({ total: 0 });
  });

  it("one active signal per stock and side: a newer one supersedes the older, which is kept with a note", async () => {
    const first = await create({ stock_code: "002594", action: "buy", source_report_id: 7001 });
    const second = await create({ stock_code: "002594", action: "buy", source_report_id: 7002 });
    const hold = await create({ stock_code: "002594", action: "hold", source_report_id: 7003 });
    const third = await create({ stock_code: "002594", action: "add", source_report_id: 7004 });
    expect((await getOne(first.item.id)).metadata).toMatchObject({
      invalidated_by_signal_id: second.item.id,
      invalidated_reason: "superseded",
      previous_status: "active",
    });
    expect((await getOne(second.item.id)).metadata).toMatchObject({
      invalidated_by_signal_id: third.item.id,
      invalidated_reason: "superseded",
    });
    const active = await list("stock_code=002594&status=active");
    expect(active.items.map((i) => i.id).sort()).toEqual([hold.item.id, third.item.id].sort());
    // Every superseded signal stays readable as history.
    expect((await list("stock_code=002594&status=invalidated")).total).toBe(2);
  });

  it("parallel creates of one side from different reports leave exactly one of them active", async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        create({ stock_code: "601398", action: "reduce", source_report_id: 8100 + i }),
      ),
    );
    expect(results.every((r) => r.created)).toBe(true);
    const active = await list("stock_code=601398&status=active&action=reduce");
    expect(active.total).toBe(1);
    expect(results.map((r) => r.item.id)).toContain(active.items[0]!.id);
  });

  it("lazy expiry on list, latest and single reads, with the signal clock moved past expires_at", async () => {
    const single = await create({ stock_code: "AAPL", market: "us", horizon: "1d", trace_id: "lazy-single" });
    const listed = await create({ stock_code: "MSFT", market: "us", horizon: "1d", trace_id: "lazy-list" });
    const latest = await create({ stock_code: "NVDA", market: "us", horizon: "1d", trace_id: "lazy-latest" });
    const stored = async (id: number) =>
      (await database.get<{ status: string }>("SELECT status FROM decision_signal WHERE id = ?", id))!.status;
    expect(
      ZDecisionSignalListResponse.parse(await json(await api("/latest/NVDA?market=us"), 200)).items.map((i) => i.id),
    ).toEqual([latest.item.id]);
    await setSignalClock(new Date(Date.parse(single.item.expires_at!) + 1000));
    try {
      expect(await stored(single.item.id)).toBe("active"); // nothing changes until a read
      expect((await getOne(single.item.id)).status).toBe("expired");
      const page = await list("stock_code=MSFT&market=us");
      expect(page.items.find((i) => i.id === listed.item.id)?.status).toBe("expired");
      const latestPage = ZDecisionSignalListResponse.parse(await json(await api("/latest/nvda.us?limit=5"), 200));
      expect(latestPage).toMatchObject({ items: [], total: 0, page: 1, page_size: 5 });
      expect(await stored(latest.item.id)).toBe("expired");

      // expired → active: an active create matching the dedup key renews it (new expiry, same id).
      const renewed = await create({ stock_code: "AAPL", market: "us", horizon: "1d", trace_id: "lazy-single" });
      expect(renewed).toMatchObject({ created: false, item: { id: single.item.id, status: "active" } });
      expect(Date.parse(renewed.item.expires_at!)).toBeGreaterThan(Date.parse(single.item.expires_at!));
      expect(renewed.item.metadata).toHaveProperty("renewed_at");

      // An old replayed create (already expired, or explicitly non-active) is no activation.
      const replay = await create({
        stock_code: "MSFT",
        market: "us",
        horizon: "1d",
        trace_id: "lazy-list",
        expires_at: single.item.expires_at,
      });
      expect(replay).toMatchObject({ created: false, item: { id: listed.item.id, status: "expired" } });
      const closedReplay = await create({
        stock_code: "MSFT",
        market: "us",
        horizon: "1d",
        trace_id: "lazy-list",
        status: "closed",
      });
      expect(closedReplay).toMatchObject({ created: false, item: { id: listed.item.id, status: "expired" } });
      // A fresh active create with a past expires_at is stored expired and invalidates nothing.
      const pastSell = await create({
        stock_code: "AAPL",
        market: "us",
        action: "sell",
        expires_at: "2020-01-01T00:00:00Z",
      });
      expect(pastSell).toMatchObject({ created: true, item: { status: "expired" } });
      expect((await getOne(single.item.id)).status).toBe("active");
    } finally {
      await setSignalClock(null);
    }
  });

  it("PATCH: any legal status; metadata replaces whole; terminal → active is 400", async () => {
    const { item } = await create({ stock_code: "TSLA", market: "us", metadata: { a: 1, b: { c: 2 } } });
    const keep = ZDecisionSignalItem.parse(
      await json(await send("PATCH", `/${item.id}/status`, { status: "active" }), 200),
    );
    expect(keep.metadata).toEqual({ a: 1, b: { c: 2 } }); // no metadata key: unchanged
    const closed = ZDecisionSignalItem.parse(
      await json(await send("PATCH", `/${item.id}/status`, { status: "closed", metadata: { closed_by: "test" } }), 200),
    );
    expect(closed).toMatchObject({ status: "closed", metadata: { closed_by: "test" } });
    for (const status of ["expired", "invalidated", "closed", "archived"]) {
      await database.run("UPDATE decision_signal SET status = ? WHERE id = ?", status, item.id);
      const refused = (await json(await send("PATCH", `/${item.id}/status`, { status: "active" }), 400)) as {
        error: string;
      };
      expect(refused.error).toBe("invalid_status_transition");
    }
    const archived = ZDecisionSignalItem.parse(
      await json(await send("PATCH", `/${item.id}/status`, { status: "closed", metadata: null }), 200),
    );
    expect(archived).toMatchObject({ status: "closed", metadata: null });
    expect(
      ((await json(await send("PATCH", `/${item.id}/status`, { status: "done" }), 400)) as { error: string }).error,
    ).toBe("invalid_signal_status");
    await json(await send("PATCH", "/99999999/status", { status: "closed" }), 404);
    await json(await send("PATCH", "/abc/status", { status: "closed" }), 422);
    await json(await send("PATCH", `/${item.id}/status`, {}), 422);
  });

  it("single read: 404 unknown, 422 not an integer", async () => {
    expect(((await json(await api("/99999999"), 404)) as { error: string }).error).toBe("not_found");
    await json(await api("/abc"), 422);
  });
});

describe("4.5 list filters and paging", () => {
  it("filters by every field, inclusive date bounds, holding_only from cached positions", async () => {
    const a = await create({
      stock_code: "09988",
      market: "hk",
      action: "reduce",
      source_type: "manual",
      trigger_source: "filter-test",
      trace_id: "flt-a",
      source_report_id: 5151,
      market_phase: "premarket",
    });
    const b = await create({
      stock_code: "00700",
      market: "hk",
      action: "watch",
      source_type: "alert",
      trigger_source: "filter-test",
      trace_id: "flt-b",
    });
    const byTrigger = await list("trigger_source=filter-test&page_size=1");
    expect(byTrigger).toMatchObject({ total: 2, page: 1, page_size: 1 });
    expect(byTrigger.items[0]!.id).toBe(b.item.id); // newest first
    expect((await list("trigger_source=filter-test&page=2&page_size=1")).items[0]!.id).toBe(a.item.id);
    expect((await list("market=hk&action=reduce&trigger_source=filter-test")).items.map((i) => i.id)).toEqual([
      a.item.id,
    ]);
    expect((await list("source_type=alert&trigger_source=filter-test")).items.map((i) => i.id)).toEqual([b.item.id]);
    expect((await list("source_report_id=5151")).items.map((i) => i.id)).toEqual([a.item.id]);
    expect((await list("trace_id=flt-b")).items.map((i) => i.id)).toEqual([b.item.id]);
    expect((await list("market_phase=premarket&trigger_source=filter-test")).items.map((i) => i.id)).toEqual([
      a.item.id,
    ]);
    expect((await list("stock_code=700.HK")).items.map((i) => i.id)).toEqual([b.item.id]);
    expect((await list(`status=active&trigger_source=filter-test`)).total).toBe(2);
    const createdAt = b.item.created_at;
    expect(
      (
        await list(
          `trigger_source=filter-test&created_from=${encodeURIComponent(createdAt)}&created_to=${encodeURIComponent(createdAt)}`,
        )
      ).items.map((i) => i.id),
    ).toContain(b.item.id);
    expect((await list(`trigger_source=filter-test&created_to=2000-01-01`)).total).toBe(0);
    expect((await list(`trigger_source=filter-test&expires_from=2000-01-01`)).total).toBe(2);
    await json(await api("?created_from=2024-02-30"), 422);
    await json(await api("?page=0"), 422);
    await json(await api("?page_size=101"), 422);
    await json(await api("?status=bogus"), 422);
    await json(await api("?created_from=2024-05-02&created_to=2024-05-01"), 400);

    // holding_only: the positions cache (filled by the portfolio feature) is empty until then.
    expect((await list("holding_only=true&trigger_source=filter-test")).total).toBe(0);
    // active is a boolean (1/0 on SQLite, bound per database by the helper).
    const addAccount = async (name: string, active: boolean) =>
      Number(
        (await database.get<{ id: number }>(
          "INSERT INTO portfolio_account (name, active) VALUES (?, ?) RETURNING id",
          name,
          active,
        ))!.id,
      );
    const account = await addAccount("main", true);
    const closedAccount = await addAccount("closed", false);
    const now = new Date().toISOString();
    await database.run(
      "INSERT INTO portfolio_position (account_id, market, stock_code, target_key, quantity, updated_at) VALUES (?, 'hk', '09988', 'stock:hk:09988', 100, ?)",
      account,
      now,
    );
    await database.run(
      "INSERT INTO portfolio_position (account_id, market, stock_code, target_key, quantity, updated_at) VALUES (?, 'hk', '00700', 'stock:hk:00700', 100, ?)",
      closedAccount,
      now,
    );
    expect((await list("holding_only=true&trigger_source=filter-test")).items.map((i) => i.id)).toEqual([a.item.id]);
    expect((await list(`holding_only=true&account_id=${account}&trigger_source=filter-test`)).total).toBe(1);
    expect((await list(`holding_only=true&account_id=${closedAccount}&trigger_source=filter-test`)).total).toBe(0);
    await database.run("DELETE FROM portfolio_position");
    await database.run("DELETE FROM portfolio_account");
  });
});

describe("3.3 outcomes", () => {
  it("evaluates on sample bars after the anchor close; the return matches one computed here from the bars", async () => {
    const monday = pastMondayMorning();
    const friday = isoDay(monday.getTime() - 3 * DAY);
    await setSignalClock(monday);
    let signal: TDecisionSignalItem;
    let watch: TDecisionSignalItem;
    try {
      signal = (await create({ stock_code: "601318", action: "buy", trace_id: "outcome-buy", horizon: "10d" })).item;
      watch = (await create({ stock_code: "601318", action: "watch", trace_id: "outcome-watch" })).item;
    } finally {
      await setSignalClock(null);
    }
    const run = ZOutcomeRunResponse.parse(
      await json(await send("POST", "/outcomes/run", { signal_id: signal.id }), 200),
    );
    expect(run).toMatchObject({
      evaluated: 4,
      created: 4,
      updated: 0,
      skipped: 0,
      engine_version: "decision-signal-v1",
    });

    const bars = await sampleBars("601318", 120);
    const closeOn = (day: string) => bars.find((b) => b.date === day)!;
    const start = closeOn(friday).close;
    for (const [horizon, n] of [
      ["1d", 1],
      ["3d", 3],
      ["5d", 5],
      ["10d", 10],
    ] as const) {
      const row = run.items.find((r) => r.horizon === horizon)!;
      const window = weekdaysAfter(friday, n).map(closeOn);
      const end = window.at(-1)!.close;
      const expected = ((end - start) / start) * 100;
      expect(row).toMatchObject({
        eval_status: "completed",
        anchor_date: friday,
        start_price: start,
        end_close: end,
        end_date: window.at(-1)!.date,
        eval_window_days: n,
        direction_expected: "up",
        action: "buy",
        market: "cn",
      });
      expect(row.stock_return_pct!).toBeCloseTo(expected, 9);
      expect(row.max_high).toBe(Math.max(...window.map((b) => b.high)));
      expect(row.min_low).toBe(Math.min(...window.map((b) => b.low)));
      expect(row.outcome).toBe(expected >= 2 ? "hit" : expected <= -2 ? "miss" : "neutral");
      expect(row.direction_correct).toBe(expected > 0);
    }

    // A second run skips completed rows; force recomputes and overwrites the same rows.
    const again = ZOutcomeRunResponse.parse(
      await json(await send("POST", "/outcomes/run", { signal_id: signal.id }), 200),
    );
    expect(again).toMatchObject({ evaluated: 0, skipped: 4, items: [] });
    const forced = ZOutcomeRunResponse.parse(
      await json(await send("POST", "/outcomes/run", { signal_id: signal.id, force: true, horizons: ["3d"] }), 200),
    );
    expect(forced).toMatchObject({ evaluated: 1, created: 0, updated: 1, skipped: 0 });
    expect(forced.items[0]!.id).toBe(run.items.find((r) => r.horizon === "3d")!.id);

    // Terminal unable (watch has no direction) is skipped by later runs.
    const watchRun = ZOutcomeRunResponse.parse(
      await json(await send("POST", "/outcomes/run", { signal_id: watch.id, horizons: ["1d"] }), 200),
    );
    expect(watchRun.items[0]).toMatchObject({
      eval_status: "unable",
      unable_reason: "non_directional_action",
      retryable: false,
      outcome: null,
    });
    expect(
      ZOutcomeRunResponse.parse(
        await json(await send("POST", "/outcomes/run", { signal_id: watch.id, horizons: ["1d"] }), 200),
      ),
    ).toMatchObject({ evaluated: 0, skipped: 1 });

    // GET {id}/outcomes: the current engine's rows by horizon.
    const own = ZOutcomeListResponse.parse(await json(await api(`/${signal.id}/outcomes`), 200));
    expect(own.items.map((r) => r.horizon)).toEqual(["1d", "3d", "5d", "10d"]);
    await json(await api("/99999999/outcomes"), 404);
  });

  it("a signal made from a report is graded only on bars of the report's source; a later run retries it", async () => {
    const res = await fetch(`${server.baseUrl}/api/v1/analysis/analyze`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ stock_code: "601318" }),
    });
    const recordId = ZAnalysisResultResponse.parse(await json(res, 200)).report.meta.id!;
    const setReportSource = async (source: string) => {
      const row = await database.get<{ report_json: string }>(
        "SELECT report_json FROM analysis_history WHERE id = ?",
        recordId,
      );
      const parts = JSON.parse(row!.report_json) as { details: { data_quality: { source: string } } };
      parts.details.data_quality.source = source;
      await database.run("UPDATE analysis_history SET report_json = ? WHERE id = ?", JSON.stringify(parts), recordId);
    };
    // As if the report had been made from a CSV file: the server's bars are the sample series.
    await setReportSource("csv");
    await setSignalClock(pastMondayMorning());
    let signal: TDecisionSignalItem;
    try {
      signal = (
        await create({ stock_code: "601318", action: "buy", trace_id: "outcome-source", source_report_id: recordId })
      ).item;
    } finally {
      await setSignalClock(null);
    }
    const run = async () =>
      ZOutcomeRunResponse.parse(
        await json(await send("POST", "/outcomes/run", { signal_id: signal.id, horizons: ["1d"] }), 200),
      ).items[0];
    expect(await run()).toMatchObject({
      eval_status: "unable",
      unable_reason: "bars_from_other_source",
      retryable: true,
      start_price: null,
    });
    await setReportSource("sample");
    expect(await run()).toMatchObject({ eval_status: "completed", unable_reason: null });
  });

  it("recoverable unable rows are recomputed; a signal created now has no forward bars yet", async () => {
    const fresh = (await create({ stock_code: "000001", action: "sell", trace_id: "outcome-fresh" })).item;
    const first = ZOutcomeRunResponse.parse(
      await json(await send("POST", "/outcomes/run", { signal_id: fresh.id, horizons: ["1d", "5d"] }), 200),
    );
    expect(first.items.map((r) => [r.eval_status, r.unable_reason, r.retryable])).toEqual([
      ["unable", "insufficient_forward_bars", true],
      ["unable", "insufficient_forward_bars", true],
    ]);
    const second = ZOutcomeRunResponse.parse(
      await json(await send("POST", "/outcomes/run", { signal_id: fresh.id, horizons: ["1d", "5d"] }), 200),
    );
    expect(second).toMatchObject({ evaluated: 2, created: 0, updated: 2, skipped: 0 });

    // A past signal whose row was stored unable (bars were missing then) is completed by the next run.
    const monday = pastMondayMorning();
    await setSignalClock(new Date(monday.getTime() - 7 * DAY));
    let past: TDecisionSignalItem;
    try {
      past = (await create({ stock_code: "000001", action: "reduce", trace_id: "outcome-recover" })).item;
    } finally {
      await setSignalClock(null);
    }
    const stamp = new Date().toISOString();
    await database.run(
      "INSERT INTO decision_signal_outcome (signal_id, horizon, engine_version, eval_status, retryable, unable_reason, created_at, updated_at) VALUES (?, '1d', 'decision-signal-v1', 'unable', ?, 'missing_anchor_price', ?, ?)",
      past.id,
      true,
      stamp,
      stamp,
    );
    const recovered = ZOutcomeRunResponse.parse(
      await json(await send("POST", "/outcomes/run", { signal_id: past.id, horizons: ["1d"] }), 200),
    );
    expect(recovered).toMatchObject({ evaluated: 1, created: 0, updated: 1 });
    expect(recovered.items[0]).toMatchObject({
      eval_status: "completed",
      unable_reason: null,
      direction_expected: "not_up",
    });
    // A terminal unable row is left alone.
    await database.run(
      "UPDATE decision_signal_outcome SET eval_status = 'unable', retryable = ?, unable_reason = 'non_directional_action' WHERE signal_id = ? AND horizon = '1d'",
      false,
      past.id,
    );
    expect(
      ZOutcomeRunResponse.parse(
        await json(await send("POST", "/outcomes/run", { signal_id: past.id, horizons: ["1d"] }), 200),
      ),
    ).toMatchObject({ evaluated: 0, skipped: 1 });
  });

  it("run request validation: 404 unknown signal, 422 bad horizon or limit", async () => {
    await json(await send("POST", "/outcomes/run", { signal_id: 99999999 }), 404);
    await json(await send("POST", "/outcomes/run", { horizons: ["2d"] }), 422);
    await json(await send("POST", "/outcomes/run", { limit: 501 }), 422);
    await json(await send("POST", "/outcomes/run", { limit: 0 }), 422);
  });

  it("outcome list filters and paging; stats default to the current engine and exclude archived signals", async () => {
    const page = ZOutcomeListResponse.parse(await json(await api("/outcomes?eval_status=completed&page_size=2"), 200));
    expect(page.page_size).toBe(2);
    expect(page.items.every((r) => r.eval_status === "completed" && r.engine_version === "decision-signal-v1")).toBe(
      true,
    );
    const all = ZOutcomeListResponse.parse(await json(await api("/outcomes?page_size=100"), 200));
    expect(ZOutcomeListResponse.parse(await json(await api("/outcomes?engine_version=other"), 200)).total).toBe(0);
    expect(
      ZOutcomeListResponse.parse(await json(await api("/outcomes?horizon=10d"), 200)).items.every(
        (r) => r.horizon === "10d",
      ),
    ).toBe(true);
    await json(await api("/outcomes?horizon=2d"), 422);

    const statusOf = new Map<number, string>();
    for (const id of new Set(all.items.map((r) => r.signal_id))) statusOf.set(id, (await getOne(id)).status);
    const counted = all.items.filter((r) => statusOf.get(r.signal_id) !== "archived");
    const stats = ZOutcomeStatsResponse.parse(await json(await api("/outcomes/stats"), 200));
    expect(stats.engine_version).toBe("decision-signal-v1");
    expect(stats.horizons).toEqual(["1d", "3d", "5d", "10d"]);
    expect(stats.statuses).toEqual(["active", "expired", "invalidated", "closed"]);
    expect(stats.total).toBe(counted.length);
    const hit = counted.filter((r) => r.outcome === "hit").length;
    const miss = counted.filter((r) => r.outcome === "miss").length;
    expect(stats).toMatchObject({
      hit,
      miss,
      completed: counted.filter((r) => r.eval_status === "completed").length,
      unable: counted.filter((r) => r.eval_status === "unable").length,
    });
    expect(stats.hit_rate_pct).toBe(hit + miss > 0 ? (hit / (hit + miss)) * 100 : null);
    const returns = counted.filter((r) => r.eval_status === "completed").map((r) => r.stock_return_pct!);
    expect(stats.avg_stock_return_pct!).toBeCloseTo(returns.reduce((s, v) => s + v, 0) / returns.length, 9);
    expect(stats.unable_reasons.insufficient_forward_bars).toBeGreaterThanOrEqual(2);
    expect(stats.breakdowns.horizon.map((b) => b.value)).toEqual(["1d", "3d", "5d", "10d"]);
    expect(stats.by_horizon_action.find((c) => c.horizon === "10d" && c.action === "buy")?.completed).toBe(1);

    // Spec 4.5 types horizons and statuses as arrays of strings: a value naming nothing counts nothing.
    const unknown = ZOutcomeStatsResponse.parse(
      await json(await api("/outcomes/stats?horizons=2w&statuses=bogus"), 200),
    );
    expect(unknown).toMatchObject({ horizons: [], statuses: [], total: 0 });
    const mixed = ZOutcomeStatsResponse.parse(await json(await api("/outcomes/stats?horizons=10d,2w"), 200));
    expect(mixed.horizons).toEqual(["10d"]);
    expect(mixed.total).toBe(counted.filter((r) => r.horizon === "10d").length);

    // Archiving a signal removes its rows from the default stats; naming the status brings them back.
    const archivedId = all.items.find((r) => r.eval_status === "completed")!.signal_id;
    const rowsOfArchived = all.items.filter((r) => r.signal_id === archivedId).length;
    await json(await send("PATCH", `/${archivedId}/status`, { status: "archived" }), 200);
    const without = ZOutcomeStatsResponse.parse(await json(await api("/outcomes/stats"), 200));
    expect(without.total).toBe(stats.total - rowsOfArchived);
    const withArchived = ZOutcomeStatsResponse.parse(await json(await api("/outcomes/stats?statuses=archived"), 200));
    expect(withArchived.total).toBe(rowsOfArchived);
    const twoHorizons = ZOutcomeStatsResponse.parse(
      await json(await api("/outcomes/stats?horizons=1d&horizons=3d"), 200),
    );
    expect(twoHorizons.horizons).toEqual(["1d", "3d"]);
    // Spec 4.5: statuses is an array of strings; one that names no status counts nothing.
    expect(ZOutcomeStatsResponse.parse(await json(await api("/outcomes/stats?statuses=bogus"), 200)).total).toBe(0);

    // Two rule sets side by side: the breakdown by the analysis's rule set, and a filter on it.
    const tagged = counted.find((r) => r.signal_id !== archivedId)!.signal_id;
    const taggedRows = counted.filter((r) => r.signal_id === tagged).length;
    await database.run("UPDATE decision_signal SET decision_engine_version = 'rules-v2' WHERE id = ?", tagged);
    const compared = ZOutcomeStatsResponse.parse(await json(await api("/outcomes/stats"), 200));
    expect(compared.breakdowns.decision_engine_version.find((b) => b.value === "rules-v2")?.total).toBe(taggedRows);
    const onlyV2 = ZOutcomeStatsResponse.parse(
      await json(await api("/outcomes/stats?decision_engine_version=rules-v2"), 200),
    );
    expect(onlyV2.total).toBe(taggedRows);
  });
});

describe("3.4 feedback", () => {
  it("null when none; PUT upserts one value per signal", async () => {
    const { item } = await create({ stock_code: "000858", action: "hold", trace_id: "feedback-1" });
    expect(ZFeedbackItem.parse(await json(await api(`/${item.id}/feedback`), 200))).toMatchObject({
      signal_id: item.id,
      feedback_value: null,
    });
    const useful = ZFeedbackItem.parse(
      await json(
        await send("PUT", `/${item.id}/feedback`, {
          feedback_value: "useful",
          reason_code: "clear_plan",
          note: "good",
        }),
        200,
      ),
    );
    expect(useful).toMatchObject({ feedback_value: "useful", reason_code: "clear_plan", note: "good", source: "api" });
    const replaced = ZFeedbackItem.parse(
      await json(await send("PUT", `/${item.id}/feedback`, { feedback_value: "not_useful", source: "web" }), 200),
    );
    expect(replaced).toMatchObject({
      feedback_value: "not_useful",
      reason_code: null,
      note: null,
      source: "web",
      created_at: useful.created_at,
    });
    expect(ZFeedbackItem.parse(await json(await api(`/${item.id}/feedback`), 200)).feedback_value).toBe("not_useful");
    const rows = (await database.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM decision_signal_feedback WHERE signal_id = ?",
      item.id,
    ))!;
    expect(rows.n).toBe(1);
    await json(await send("PUT", `/${item.id}/feedback`, { feedback_value: "meh" }), 422);
    await json(await send("PUT", `/${item.id}/feedback`, { feedback_value: "useful", note: "x".repeat(1001) }), 422);
    await json(await send("PUT", "/99999999/feedback", { feedback_value: "useful" }), 404);
    await json(await api("/99999999/feedback"), 404);
  });
});

describe("analyses create linked signals", () => {
  it("a directional analysis creates one signal linked to its history record; deleting the record nulls the link", async () => {
    const codes = ["600519", "000001", "300750", "601318", "000858", "00700", "09988", "AAPL", "TSLA", "NVDA", "MSFT"];
    let linked: { recordId: number; signalId: number } | null = null;
    for (const code of codes) {
      const res = await fetch(`${server.baseUrl}/api/v1/analysis/analyze`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ stock_code: code }),
      });
      const result = ZAnalysisResultResponse.parse(await json(res, 200));
      const recordId = result.report.meta.id!;
      const signals = await list(`source_report_id=${recordId}`);
      const action = result.report.summary.action;
      if (action === null || action === "watch" || action === "alert") {
        expect(signals.total, `${code} ${action}`).toBe(0);
        continue;
      }
      expect(signals.total, `${code} ${action}`).toBe(1);
      expect(signals.items[0]).toMatchObject({
        source_type: "analysis",
        source_report_id: recordId,
        trace_id: result.trace_id,
        action,
      });
      linked ??= { recordId, signalId: signals.items[0]!.id };
    }
    expect(linked, "no sample stock produced a directional action today").not.toBeNull();
    const del = await fetch(`${server.baseUrl}/api/v1/history`, {
      method: "DELETE",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ record_ids: [linked!.recordId] }),
    });
    await json(del, 200);
    expect((await getOne(linked!.signalId)).source_report_id).toBeNull();
  });
});

describe("CONTRACT §14.3 reassess under a decision profile", () => {
  let sourceId: number;
  let clones = 0;

  /** A copy of an analysed record whose stored call, plan, data quality and confidence are the given ones. */
  async function storedCall(call: {
    action: string;
    plan: {
      ideal_buy?: string | null;
      secondary_buy?: string | null;
      stop_loss?: string | null;
      take_profit?: string | null;
    };
    quality?: "good" | "degraded" | "insufficient" | null;
    confidence?: "high" | "medium" | "low" | null;
    reportType?: string;
    lastBar?: string;
  }): Promise<number> {
    const row = await database.get<{ report_json: string }>(
      "SELECT report_json FROM analysis_history WHERE id = ?",
      sourceId,
    );
    const parts = JSON.parse(row!.report_json) as {
      summary: Record<string, unknown>;
      strategy: Record<string, unknown>;
      details: { data_quality?: Record<string, unknown> | null; raw_result: Record<string, unknown> };
    };
    parts.summary.action = call.action;
    parts.summary.sentiment_score = 66;
    parts.strategy = { ideal_buy: null, secondary_buy: null, stop_loss: null, take_profit: null, ...call.plan };
    parts.details.data_quality =
      call.quality === null
        ? null
        : {
            level: call.quality ?? "good",
            reasons: [],
            bars: 250,
            last_bar_date: call.lastBar ?? new Date().toISOString().slice(0, 10),
            source: "sample",
          };
    const rawResult = parts.details.raw_result;
    rawResult.engine = "rules";
    rawResult.dashboard = { core_conclusion: { confidence: call.confidence ?? "medium" }, risk_warnings: ["risk one"] };
    if (call.confidence === null) rawResult.dashboard = {};
    rawResult.score_breakdown = [{ factor: "trend", points: 20 }];
    clones += 1;
    return cloneRecord(database, sourceId, {
      query_id: `reassess-${clones}-${Date.now()}`,
      action: call.action,
      report_type: call.reportType ?? "detailed",
      report_json: JSON.stringify(parts),
      // A call made after the close: the source's "auto" phase is the clock's (premarket from 00:00 Shanghai), and
      // an in-session phase would make every default horizon intraday.
      analysis_phase: "postmarket",
    });
  }

  function reassess(body: Record<string, unknown>) {
    return send("POST", "/reassess", body);
  }

  const GOOD_BUY = {
    ideal_buy: "10.50（MA5）",
    secondary_buy: "10.00（MA10）",
    stop_loss: "9.50",
    take_profit: "12.00",
  };

  beforeAll(async () => {
    sourceId = (await analyzeRecord(server.baseUrl, { stock_code: "601398" })).id;
  });

  it("a preview reads the stored call and stores nothing; persist stores it once under the profile", async () => {
    const id = await storedCall({ action: "buy", plan: GOOD_BUY });
    const preview = ZReassessResponse.parse(
      await json(await reassess({ source_report_id: id, decision_profile: "balanced" }), 200),
    );
    expect(preview).toMatchObject({ item: null, created: false, blocked_reason: null, warnings: [] });
    expect(preview.preview).toMatchObject({
      action: "buy",
      score: 66,
      confidence: null,
      horizon: "3d",
      entry_low: 10,
      entry_high: 10.5,
      stop_loss: 9.5,
      target_price: 12,
      risk_summary: "risk one",
    });
    expect(preview.preview.metadata).toMatchObject({
      decision_profile: "balanced",
      data_quality_level: "good",
      confidence_level: "medium",
      scoring_breakdown: {
        score: 66,
        raw_action: "buy",
        final_action: "buy",
        factors: [{ factor: "trend", points: 20 }],
      },
      guardrail_result: { raw_action: "buy", final_action: "buy", passed: true, violations: [], adjusted: false },
    });
    expect((await list(`source_report_id=${id}`)).total).toBe(0);

    const stored = ZReassessResponse.parse(
      await json(await reassess({ source_report_id: id, decision_profile: "balanced", persist: true }), 200),
    );
    expect(stored.created).toBe(true);
    expect(stored.item).toMatchObject({
      source_report_id: id,
      source_type: "analysis",
      decision_profile: "balanced",
      action: "buy",
      stop_loss: 9.5,
      target_price: 12,
      status: "active",
      trigger_source: "decision_profile_reassess",
    });
    expect(stored.item!.metadata).toMatchObject({ decision_profile: "balanced", data_quality_level: "good" });
    const again = ZReassessResponse.parse(
      await json(await reassess({ source_report_id: id, decision_profile: "balanced", persist: true }), 200),
    );
    expect(again).toMatchObject({ created: false, item: { id: stored.item!.id } });
    // Another profile is another signal; the list filter tells them apart.
    await json(await reassess({ source_report_id: id, decision_profile: "aggressive", persist: true }), 200);
    expect((await list(`source_report_id=${id}`)).total).toBe(2);
    expect((await list(`source_report_id=${id}&decision_profile=balanced`)).items.map((s) => s.id)).toEqual([
      stored.item!.id,
    ]);
  });

  it("conservative holds a buy on degraded data without a target back to watch; persist is refused", async () => {
    const id = await storedCall({ action: "buy", plan: { ...GOOD_BUY, take_profit: null }, quality: "degraded" });
    const balanced = ZReassessResponse.parse(
      await json(await reassess({ source_report_id: id, decision_profile: "balanced" }), 200),
    );
    expect(balanced.preview.action).toBe("buy");
    const body = ZReassessResponse.parse(
      await json(await reassess({ source_report_id: id, decision_profile: "conservative" }), 200),
    );
    expect(body.blocked_reason).toBe("actionable_signal_blocked_by_guardrail");
    expect(body.preview.action).toBe("watch");
    expect(body.preview.metadata.guardrail_result).toEqual({
      raw_action: "buy",
      final_action: "watch",
      passed: false,
      violations: ["data_quality_not_good", "missing_target_price"],
      adjustments: ["action_downgraded_by_guardrail"],
      adjusted: true,
    });
    expect(body.warnings.map((w) => w.code)).toEqual(["action_adjusted_by_guardrail", "action_blocked_by_guardrail"]);
    expect(body.warnings[1]!.params).toMatchObject({ violations: ["data_quality_not_good", "missing_target_price"] });
    expect(body.warnings[1]!.message.length).toBeGreaterThan(0);

    const refused = (await json(
      await reassess({ source_report_id: id, decision_profile: "conservative", persist: true }),
      400,
    )) as { error: string; blocked_reason: string; warnings: { code: string }[] };
    expect(refused.error).toBe("guardrail_blocked");
    expect(refused.blocked_reason).toBe("actionable_signal_blocked_by_guardrail");
    expect(refused.warnings.map((w) => w.code)).toContain("action_blocked_by_guardrail");
    expect((await list(`source_report_id=${id}`)).total).toBe(0);
  });

  it("every profile refuses a buy without a stop, with low or unstated confidence or unknown data quality", async () => {
    const cases = [
      { call: { plan: { ...GOOD_BUY, stop_loss: null } }, violation: "missing_invalidation_or_stop_loss" },
      { call: { plan: GOOD_BUY, confidence: "low" as const }, violation: "confidence_below_actionable_threshold" },
      { call: { plan: GOOD_BUY, confidence: null }, violation: "missing_confidence" },
      { call: { plan: GOOD_BUY, quality: null }, violation: "insufficient_data_quality" },
    ];
    for (const { call, violation } of cases) {
      const id = await storedCall({ action: "add", ...call });
      for (const profile of ["conservative", "balanced", "aggressive"]) {
        const body = ZReassessResponse.parse(
          await json(await reassess({ source_report_id: id, decision_profile: profile }), 200),
        );
        expect(body.preview.action, `${violation} ${profile}`).toBe("watch");
        expect(body.preview.metadata.guardrail_result.violations, profile).toContain(violation);
      }
    }
  });

  it("contradicting prices make an alert; other actions pass every profile", async () => {
    const contradict = await storedCall({ action: "buy", plan: { ...GOOD_BUY, stop_loss: "11.00" } });
    const alert = ZReassessResponse.parse(
      await json(await reassess({ source_report_id: contradict, decision_profile: "aggressive" }), 200),
    );
    expect(alert.preview.action).toBe("alert");
    expect(alert.preview.horizon).toBe("intraday");
    expect(alert.preview.metadata.guardrail_result.violations).toContain("stop_loss_not_below_entry");

    const hold = await storedCall({ action: "hold", plan: { stop_loss: "9.50" }, confidence: "low", quality: null });
    const body = ZReassessResponse.parse(
      await json(await reassess({ source_report_id: hold, decision_profile: "conservative", persist: true }), 200),
    );
    expect(body.preview.metadata.guardrail_result).toMatchObject({ passed: true, final_action: "hold" });
    expect(body).toMatchObject({ created: true, item: { action: "hold", decision_profile: "conservative" } });
  });

  it("warns when sessions have closed since the report's last bar", async () => {
    const id = await storedCall({ action: "buy", plan: GOOD_BUY, lastBar: "2020-01-02" });
    const body = ZReassessResponse.parse(
      await json(await reassess({ source_report_id: id, decision_profile: "balanced" }), 200),
    );
    expect(body.blocked_reason).toBeNull();
    expect(body.warnings).toEqual([
      expect.objectContaining({
        code: "stale_source_report",
        params: expect.objectContaining({ last_bar_date: "2020-01-02" }),
      }),
    ]);
  });

  it("404 for an unknown report, 400 for a market review, 422 for a bad profile", async () => {
    const missing = (await json(
      await reassess({ source_report_id: 987654321, decision_profile: "balanced" }),
      404,
    )) as {
      error: string;
    };
    expect(missing.error).toBe("source_report_not_found");
    const review = await storedCall({ action: "hold", plan: {}, reportType: "market_review" });
    const refused = (await json(await reassess({ source_report_id: review, decision_profile: "balanced" }), 400)) as {
      error: string;
    };
    expect(refused.error).toBe("unsupported_report_type");
    await json(await reassess({ source_report_id: review, decision_profile: "reckless" }), 422);
    await json(await reassess({ decision_profile: "balanced" }), 422);
  });
});

describe("5: decision-signal endpoints with admin auth on", () => {
  let authServer: TestServer;
  beforeAll(async () => {
    authServer = await startTestServer({ ADMIN_AUTH_ENABLED: "true", MARKET_DATA_SOURCES: "sample" });
  });
  afterAll(() => authServer?.stop());

  it("every signal operation answers 401 without a session and declares the cookie scheme", async () => {
    const ops = OPERATIONS.filter((op) => op.path.startsWith("/api/v1/decision-signals"));
    expect(ops).toHaveLength(12);
    for (const op of ops) {
      const res = await fetch(`${authServer.baseUrl}${op.path.replace(/\{[^}]+\}/g, "1")}`, {
        method: op.method,
        headers: { "content-type": "application/json" },
        body: op.method === "GET" ? undefined : "{}",
      });
      expect(res.status, `${op.method} ${op.path}`).toBe(401);
      expect(((await res.json()) as { error: string }).error).toBe("unauthorized");
    }
    const doc = (await (await fetch(`${authServer.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown; responses: Record<string, { description: string }> }>>;
    };
    for (const op of ops) {
      const entry = doc.paths[op.path]![op.method.toLowerCase()]!;
      expect(entry.security).toEqual([{ AdminSessionCookie: [] }, { BearerToken: [] }]);
      expect(entry.responses["401"]!.description).toMatch(/session is missing or invalid/);
    }
  });
});
