import { beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { deleteHistoryRecords } from "@/lib/history/delete";
import { createSignal } from "./create";
import { getSignal, listSignals } from "./read";
import { ZDecisionSignalCreateRequest, ZDecisionSignalListQuery, type TDecisionSignalCreateRequest } from "./schemas";
import { updateSignalStatus } from "./status";

withTempDatabase("signals", { LOG_LEVEL: "silent" });
// Monday 2026-11-23 10:00 Shanghai.
const T0 = new Date("2026-11-23T02:00:00Z");

function request(
  fields: Partial<TDecisionSignalCreateRequest> & Record<string, unknown>,
): TDecisionSignalCreateRequest {
  return ZDecisionSignalCreateRequest.parse({
    stock_code: "600519",
    market: "cn",
    source_type: "agent",
    trigger_source: "unit",
    action: "buy",
    ...fields,
  });
}

beforeEach(async () => {
  setClock(() => T0);
  await db().decisionSignal.deleteMany();
});

describe("3.2 create: lifecycle defaults and dedup", () => {
  it("fills horizon 3d and the expiry of the third session; code variants are one stock", async () => {
    const { item, created } = await createSignal(request({ stock_code: "600519.SH", trace_id: "trace-a" }));
    expect(created).toBe(true);
    expect(item).toMatchObject({
      stock_code: "600519",
      horizon: "3d",
      status: "active",
      expires_at: "2026-11-25T07:00:00.000Z",
      plan_quality: "minimal",
    });
    const again = await createSignal(request({ stock_code: "sh600519", trace_id: "trace-a" }));
    expect(again).toMatchObject({ created: false, item: { id: item.id } });
  });

  it("relaxed match: same source, stock and action with another horizon returns the active signal", async () => {
    const first = await createSignal(request({ source_report_id: 7, horizon: "5d", market_phase: "postmarket" }));
    const second = await createSignal(request({ source_report_id: 7, horizon: "1d", market_phase: "intraday" }));
    expect(second.created).toBe(false);
    expect(second.item.id).toBe(first.item.id);
    // Without a source report or trace id there is no dedup at all.
    const a = await createSignal(request({}));
    const b = await createSignal(request({}));
    expect(a.item.id).not.toBe(b.item.id);
  });

  it("parallel creates with one dedup key store one row", async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => createSignal(request({ trace_id: "parallel-1" }))),
    );
    expect(new Set(results.map((r) => r.item.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await db().decisionSignal.count({ where: { traceId: "parallel-1" } })).toBe(1);
  });

  it("parallel creates differing only in horizon and phase (relaxed match) store one row, on either database", async () => {
    const phases = ["premarket", "intraday", "postmarket"] as const;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        createSignal(request({ source_report_id: 42, horizon: i % 2 ? "1d" : "5d", market_phase: phases[i % 3] })),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.item.id)).size).toBe(1);
    expect(await db().decisionSignal.count({ where: { sourceReportId: 42 } })).toBe(1);
  });

  it("an active signal invalidates the opposite side; a duplicate retry reruns the repair", async () => {
    const sell = await createSignal(request({ action: "sell", trace_id: "s1" }));
    const buy = await createSignal(request({ action: "buy", trace_id: "b1" }));
    const invalidated = await getSignal(sell.item.id);
    expect(invalidated.status).toBe("invalidated");
    expect(invalidated.metadata).toMatchObject({
      invalidated_by_signal_id: buy.item.id,
      invalidated_reason: "opposite_signal",
      previous_status: "active",
    });
    // A sell that slipped in without the repair (written directly) is invalidated by the buy's duplicate retry.
    const stray = await createSignal(request({ action: "avoid" }));
    await db().decisionSignal.update({ where: { id: buy.item.id }, data: { status: "active" } });
    await db().decisionSignal.update({ where: { id: stray.item.id }, data: { status: "active" } });
    const retry = await createSignal(request({ action: "buy", trace_id: "b1" }));
    expect(retry.created).toBe(false);
    expect((await getSignal(stray.item.id)).status).toBe("invalidated");
  });

  it("parallel creates on opposite sides of one stock never leave both sides active, on either database", async () => {
    const actions = [
      "buy",
      "sell",
      "add",
      "reduce",
      "avoid",
      "buy",
      "sell",
      "add",
      "reduce",
      "buy",
      "sell",
      "avoid",
    ] as const;
    for (let round = 0; round < 3; round += 1) {
      await db().decisionSignal.deleteMany();
      const results = await Promise.all(
        actions.map((action, i) => createSignal(request({ action, trace_id: `side-${round}-${i}` }))),
      );
      expect(results.every((r) => r.created)).toBe(true);
      const active = await db().decisionSignal.findMany({ where: { status: "active" }, select: { action: true } });
      const sides = new Set(active.map((row) => (["buy", "add"].includes(row.action) ? "long" : "short")));
      expect(active.length).toBeGreaterThan(0);
      expect(sides.size).toBe(1);
      expect(await db().decisionSignal.count()).toBe(actions.length);
    }
  });

  it("lazy expiry on read; an active create renews the expired match; a replayed expired create does not", async () => {
    const first = await createSignal(request({ trace_id: "renew", horizon: "1d" }));
    expect(first.item.expires_at).toBe("2026-11-23T07:00:00.000Z");
    setClock(() => new Date("2026-11-23T07:00:00Z")); // at expires_at: expired
    expect((await getSignal(first.item.id)).status).toBe("expired");
    // Replay of an old create whose expiry has passed: stored/answered as non-active, no activation.
    const replay = await createSignal(
      request({ trace_id: "renew", horizon: "1d", expires_at: "2026-11-23T06:00:00Z" }),
    );
    expect(replay).toMatchObject({ created: false, item: { status: "expired" } });
    const renewed = await createSignal(request({ trace_id: "renew", horizon: "1d" }));
    expect(renewed).toMatchObject({
      created: false,
      item: { id: first.item.id, status: "active", expires_at: "2026-11-24T07:00:00.000Z" },
    });
  });

  it("an active create with a past expires_at is stored expired and invalidates nothing", async () => {
    const sell = await createSignal(request({ action: "sell" }));
    const late = await createSignal(request({ action: "buy", expires_at: "2026-11-20T00:00:00Z" }));
    expect(late.item.status).toBe("expired");
    expect((await getSignal(sell.item.id)).status).toBe("active");
  });

  it("price plan: a buy's stop above the entry is 400", async () => {
    await expect(createSignal(request({ entry_low: 10, entry_high: 11, stop_loss: 10.5 }))).rejects.toMatchObject({
      status: 400,
      code: "invalid_price_plan",
    });
  });
});

describe("3.2 PATCH status", () => {
  it("terminal → active is 400; metadata replaces whole", async () => {
    const { item } = await createSignal(request({ metadata: { a: 1, b: 2 } }));
    const closed = await updateSignalStatus(item.id, { status: "closed", metadata: { c: 3 } });
    expect(closed).toMatchObject({ status: "closed", metadata: { c: 3 } });
    await expect(updateSignalStatus(item.id, { status: "active" })).rejects.toMatchObject({
      status: 400,
      code: "invalid_status_transition",
    });
    await expect(updateSignalStatus(item.id, { status: "bogus" })).rejects.toMatchObject({
      status: 400,
      code: "invalid_signal_status",
    });
    expect((await updateSignalStatus(item.id, { status: "archived" })).metadata).toEqual({ c: 3 });
    expect((await updateSignalStatus(item.id, { status: "archived", metadata: null })).metadata).toBeNull();
  });
});

describe("history link", () => {
  it("deleting the history record nulls the link in the same transaction", async () => {
    const history = await db().analysisHistory.create({
      data: {
        queryId: "q-link",
        stockCode: "600519",
        displayCode: "600519",
        market: "cn",
        targetKey: "stock:cn:600519",
        reportType: "simple",
        reportLanguage: "zh",
        reportJson: "{}",
      },
    });
    const { item } = await createSignal(request({ source_type: "analysis", source_report_id: history.id }));
    expect(item.source_report_id).toBe(history.id);
    expect(await deleteHistoryRecords([history.id])).toBe(1);
    expect((await getSignal(item.id)).source_report_id).toBeNull();
  });
});

describe("4.5 list filters", () => {
  it("holding_only reads cached positions of active accounts; account_id narrows", async () => {
    await createSignal(request({ stock_code: "600519" }));
    await createSignal(request({ stock_code: "000858" }));
    await createSignal(request({ stock_code: "AAPL", market: "us" }));
    const active = await db().portfolioAccount.create({ data: { name: "main" } });
    const dormant = await db().portfolioAccount.create({ data: { name: "old", active: false } });
    const at = new Date();
    await db().portfolioPosition.create({
      data: {
        accountId: active.id,
        market: "cn",
        stockCode: "600519",
        targetKey: "stock:cn:600519",
        quantity: 100,
        updatedAt: at,
      },
    });
    await db().portfolioPosition.create({
      data: {
        accountId: dormant.id,
        market: "us",
        stockCode: "AAPL",
        targetKey: "stock:us:AAPL",
        quantity: 5,
        updatedAt: at,
      },
    });
    const held = await listSignals(ZDecisionSignalListQuery.parse({ holding_only: "true" }));
    expect(held.items.map((i) => i.stock_code)).toEqual(["600519"]);
    const other = await listSignals(
      ZDecisionSignalListQuery.parse({ holding_only: "true", account_id: String(dormant.id) }),
    );
    expect(other.total).toBe(0);
    expect((await listSignals(ZDecisionSignalListQuery.parse({}))).total).toBe(3);
    await db().portfolioPosition.deleteMany();
    await db().portfolioAccount.deleteMany();
  });
});
