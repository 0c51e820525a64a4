import { beforeEach, describe, expect, it, vi } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { reviewMarket } from "@/lib/market-review/rules";
import { getQuote } from "@/lib/market";
import { marketOverview } from "@/lib/market/overview";
import { clearQuoteCache } from "@/lib/market/quote-cache";
import { startReceiver } from "@/tests/kits/notify-receiver";
import { createAccount, createTrade } from "@/lib/portfolio/store";
import { defaultAlertDeliver } from "./deliver";
import { evaluateAlertRules } from "./evaluator";
import type { AlertMessage, DeliveryOutcome } from "./delivery-types";
import { listAlertNotifications } from "./notifications";
import { createAlertRule, deleteAlertRule, resolveAlertTarget, updateAlertRule } from "./rules";
import type { TAlertRuleCreate } from "./schemas";
import { testAlertRule } from "./service";
import { listAlertTriggers } from "./triggers";

const database = withTempDatabase("alerts", { MARKET_DATA_SOURCES: "sample" });
const sent: AlertMessage[] = [];
let nextOutcome: DeliveryOutcome["status"] = "sent";
const deliver = async (message: AlertMessage): Promise<DeliveryOutcome> => {
  sent.push(message);
  return { status: nextOutcome, detail: { channels: ["webhook"] } };
};

// Thursday 2026-11-19 10:00 in Shanghai: the A-share market is open.
const OPEN = new Date("2026-11-19T02:00:00Z");
const CLOSED = new Date("2026-11-19T12:00:00Z");
const NO_COOLDOWN = { cooldown_policy: { cooldown_seconds: 0 } };

function rule(fields: Partial<TAlertRuleCreate> & Pick<TAlertRuleCreate, "alert_type" | "target" | "parameters">) {
  return createAlertRule({ target_scope: "single_symbol", severity: "warning", enabled: true, ...fields });
}

beforeEach(async () => {
  await db().alertTrigger.deleteMany();
  await db().alertRule.deleteMany();
  await db().notificationDelivery.deleteMany();
  sent.length = 0;
  nextOutcome = "sent";
  clearQuoteCache();
  setClock(() => OPEN);
  database.useSettings({ MARKET_DATA_SOURCES: "sample" });
});

async function samplePrice(code: string): Promise<number> {
  return (await getQuote(resolveAlertTarget(code))).data.price;
}

describe("alert evaluator", () => {
  it("a crossing fires once per target: recorded as triggered and sent; it re-arms only after the condition was false", async () => {
    const price = await samplePrice("600519");
    const r = await rule({
      alert_type: "price_cross",
      target: "sh600519",
      parameters: { direction: "above", price: price - 1 },
      ...NO_COOLDOWN,
    });
    expect(r).toMatchObject({
      target: "600519",
      target_scope: "single_symbol",
      source: "api",
      cooldown_policy: { cooldown_seconds: 0 },
      cooldown_active: false,
    });

    const first = await evaluateAlertRules({ deliver });
    expect(first.triggers).toHaveLength(1);
    expect(first.triggers[0]).toMatchObject({
      rule_id: r.id,
      target: "600519",
      target_scope: "single_symbol",
      observed_value: price,
      threshold: price - 1,
      status: "triggered",
      data_source: "sample",
    });
    expect(first.triggers[0]!.diagnostics).toMatchObject({ delivery_status: "sent", severity: "warning" });
    expect(first.triggers[0]!.market_phase_summary).toMatchObject({ market: "cn", is_market_open_now: true });
    expect(first.triggers[0]!.analysis_context_pack_overview).toEqual({
      data_quality: { level: "complete", limitations: [] },
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain("600519");

    // Still above: the same crossing does not fire again.
    expect((await evaluateAlertRules({ deliver })).triggers).toHaveLength(0);
    // The condition turns false (a threshold above the price; new parameters re-arm), then true again.
    await updateAlertRule(r.id, { parameters: { direction: "above", price: price + 1 } });
    expect((await evaluateAlertRules({ deliver })).triggers).toHaveLength(0);
    await updateAlertRule(r.id, { parameters: { direction: "above", price: price - 1 } });
    expect((await evaluateAlertRules({ deliver })).triggers).toHaveLength(1);
    expect(sent).toHaveLength(2);
  });

  it("a target's first state written by another replica meanwhile (the upsert refused by the unique index) is read, not a failure", async () => {
    const price = await samplePrice("600519");
    const r = await rule({
      alert_type: "price_cross",
      target: "600519",
      parameters: { direction: "above", price: price - 1 },
      ...NO_COOLDOWN,
    });
    const states = db().alertTargetState;
    const upsert = states.upsert.bind(states);
    // The other replica's insert lands between this one's read and insert: the row exists, this insert is refused.
    const spy = vi.spyOn(states, "upsert").mockImplementationOnce((async (args: Parameters<typeof upsert>[0]) => {
      await upsert(args);
      throw Object.assign(new Error("Unique constraint failed on the fields: (`rule_id`,`target`)"), { code: "P2002" });
    }) as never);
    try {
      const pass = await evaluateAlertRules({ deliver });
      expect(spy).toHaveBeenCalled();
      expect(pass.checked.map((c) => c.status)).toEqual(["triggered"]);
      expect(pass.triggers).toHaveLength(1);
      expect(await db().alertTargetState.count({ where: { ruleId: r.id } })).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });

  it("a firing inside the target's cooldown is recorded, not sent; its notification record says cooldown_active", async () => {
    const price = await samplePrice("AAPL");
    const at = new Date("2026-11-19T15:00:00Z"); // 10:00 in New York
    setClock(() => at);
    const r = await rule({
      alert_type: "price_cross",
      target: "AAPL",
      parameters: { direction: "below", price: price + 1 },
      severity: "info",
      cooldown_policy: { cooldown_seconds: 1800 },
    });
    expect((await evaluateAlertRules({ deliver })).triggers[0]!.diagnostics).toMatchObject({ delivery_status: "sent" });
    await updateAlertRule(r.id, { parameters: { direction: "below", price: price + 2 } }); // re-arms
    setClock(() => new Date(at.getTime() + 10 * 60_000));
    const second = await evaluateAlertRules({ deliver });
    expect(second.triggers[0]).toMatchObject({ status: "triggered", diagnostics: { delivery_status: "suppressed" } });
    expect(sent).toHaveLength(1);
    const notes = await listAlertNotifications({ page: 1, page_size: 20, trigger_id: second.triggers[0]!.id });
    expect(notes.items).toHaveLength(1);
    expect(notes.items[0]).toMatchObject({
      trigger_id: second.triggers[0]!.id,
      channel: "none",
      success: false,
      error_code: "cooldown_active",
      attempt: 0,
      retryable: false,
    });
    const listed = await listAlertTriggers({ page: 1, page_size: 20, rule_id: r.id });
    expect(listed.total).toBe(2);
  });

  it("stock checks wait for trading hours (nothing recorded); the change type compares with the one price's daily change", async () => {
    setClock(() => CLOSED);
    const quote = (await getQuote(resolveAlertTarget("000001"))).data;
    const direction = quote.change_pct >= 0 ? "up" : "down";
    await rule({
      alert_type: "price_change_percent",
      target: "000001",
      parameters: { direction, change_pct: Math.max(0.01, Math.abs(quote.change_pct) - 0.005) },
      ...NO_COOLDOWN,
    });
    await rule({ alert_type: "volume_spike", target: "000001", parameters: { multiplier: 1000 }, ...NO_COOLDOWN });
    const closed = await evaluateAlertRules({ deliver });
    expect(closed.checked.map((c) => [c.status, c.record_status])).toEqual([
      ["skipped", null],
      ["skipped", null],
    ]);
    expect(closed.checked[0]!.message).toMatch(/closed/);
    expect(await db().alertTargetState.count()).toBe(0);
    setClock(() => OPEN);
    const open = await evaluateAlertRules({ deliver });
    expect(open.checked.map((c) => c.status)).toEqual(["triggered", "not_triggered"]);
    expect(open.triggers).toHaveLength(1);
    expect(open.triggers[0]!.alert_type).toBe("price_change_percent");
  });

  it("a failed delivery is recorded; a disabled rule is not evaluated; a dry run stores nothing", async () => {
    const price = await samplePrice("600519");
    const r = await rule({
      alert_type: "price_cross",
      target: "600519",
      parameters: { direction: "above", price: price / 2 },
      severity: "critical",
      ...NO_COOLDOWN,
    });
    const dry = await evaluateAlertRules({ deliver, dryRun: true });
    expect(dry.checked[0]).toMatchObject({ status: "triggered", triggered: true });
    expect(await db().alertTrigger.count()).toBe(0);
    nextOutcome = "failed";
    expect((await evaluateAlertRules({ deliver })).triggers[0]!.diagnostics).toMatchObject({
      delivery_status: "failed",
    });
    await updateAlertRule(r.id, { enabled: false });
    expect((await evaluateAlertRules({ deliver })).checked).toHaveLength(0);
  });

  it("signal rules fire once per new decision signal of the action, and never for signals older than the rule", async () => {
    const base = {
      stockCode: "600519",
      market: "cn",
      assetType: "stock",
      targetKey: "stock:cn:600519",
      sourceType: "analysis",
      triggerSource: "analysis",
      horizon: "5d",
      planQuality: "complete",
      status: "active",
      createdAt: OPEN,
      updatedAt: OPEN,
    };
    await db().decisionSignal.create({ data: { ...base, action: "buy" } });
    await rule({ alert_type: "signal_action", target: "600519", parameters: { action: "buy" }, ...NO_COOLDOWN });
    expect((await evaluateAlertRules({ deliver })).triggers).toHaveLength(0);
    await db().decisionSignal.create({ data: { ...base, action: "sell" } });
    const newBuy = await db().decisionSignal.create({ data: { ...base, action: "buy", score: 71 } });
    const fired = await evaluateAlertRules({ deliver });
    expect(fired.triggers).toHaveLength(1);
    expect(fired.triggers[0]).toMatchObject({
      status: "triggered",
      observed_value: 71,
      reason: `new buy decision signal #${newBuy.id}`,
    });
    expect((await evaluateAlertRules({ deliver })).triggers).toHaveLength(0);

    // A signal made by a report carries that report's evidence statement in the alert's message.
    const statement = "On this stock's own bars the engine's 120 \"Buy\" calls returned -0.20%: no measurable edge.";
    const report = await db().analysisHistory.create({
      data: {
        queryId: "signal-evidence",
        stockCode: "600519",
        displayCode: "600519",
        market: "cn",
        targetKey: "stock:cn:600519",
        reportType: "detailed",
        reportLanguage: "en",
        reportJson: JSON.stringify({ details: { evidence: { statement } } }),
        createdAt: OPEN,
      },
    });
    const fromReport = await db().decisionSignal.create({
      data: { ...base, action: "buy", score: 66, sourceReportId: report.id },
    });
    expect((await evaluateAlertRules({ deliver })).triggers[0]).toMatchObject({
      reason: `new buy decision signal #${fromReport.id} — ${statement}`,
    });
  });

  it("deleting a rule keeps its triggers with a null rule_id", async () => {
    const price = await samplePrice("600519");
    const r = await rule({
      alert_type: "price_cross",
      target: "600519",
      parameters: { direction: "above", price: price / 2 },
      ...NO_COOLDOWN,
    });
    await evaluateAlertRules({ deliver });
    await deleteAlertRule(r.id);
    const listed = await listAlertTriggers({ page: 1, page_size: 20, target: "sh600519" });
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]!.rule_id).toBeNull();
    expect(await db().alertTargetState.count()).toBe(0);
  });

  it("a watchlist rule checks each STOCK_LIST stock on its own; a token that names nothing is recorded as skipped once", async () => {
    database.useSettings({ MARKET_DATA_SOURCES: "sample", STOCK_LIST: "600519,sh600519,000001,ZZZ999X" });
    const r = await rule({
      target_scope: "watchlist",
      target: "default",
      alert_type: "price_cross",
      parameters: { direction: "above", price: 0.01 },
      ...NO_COOLDOWN,
    });
    expect(r.target).toBe("default");
    const first = await evaluateAlertRules({ deliver });
    expect(first.checked.map((c) => [c.target, c.status])).toEqual([
      ["600519", "triggered"],
      ["000001", "triggered"],
      ["ZZZ999X", "skipped"],
    ]);
    expect(first.triggers.map((t) => [t.target, t.status])).toEqual([
      ["600519", "triggered"],
      ["000001", "triggered"],
      ["ZZZ999X", "skipped"],
    ]);
    expect(sent.map((m) => m.target)).toEqual(["600519", "000001"]);
    const second = await evaluateAlertRules({ deliver });
    expect(second.triggers).toHaveLength(0);
    const test = await testAlertRule(r.id);
    expect(test).toMatchObject({
      rule_id: r.id,
      target_scope: "watchlist",
      status: "triggered",
      triggered: true,
      evaluated_count: 3,
      triggered_count: 2,
      skipped_count: 1,
      degraded_count: 0,
    });
    expect(test.target_results.map((t) => [t.target, t.status, t.record_status])).toEqual([
      ["600519", "triggered", "triggered"],
      ["000001", "triggered", "triggered"],
      ["ZZZ999X", "skipped", "skipped"],
    ]);
    database.useSettings({ MARKET_DATA_SOURCES: "sample", STOCK_LIST: "" });
    const empty = await evaluateAlertRules({ deliver });
    expect(empty.checked).toEqual([
      expect.objectContaining({ target: "default", status: "skipped", message: "the watchlist (STOCK_LIST) is empty" }),
    ]);
  });

  it("holdings and account rules read the portfolio: one target per held stock; concentration from the risk report", async () => {
    const account = await createAccount({ name: "main", market: "cn", base_currency: "CNY" });
    await createTrade({
      account_id: account.id,
      side: "buy",
      symbol: "600519",
      quantity: 100,
      price: 1,
      fee: 0,
      tax: 0,
      trade_date: "2026-06-01",
    });
    const holdings = await rule({
      target_scope: "portfolio_holdings",
      target: "all",
      alert_type: "ma_price_cross",
      parameters: { direction: "above", window: 5 },
      ...NO_COOLDOWN,
    });
    const concentration = await rule({
      target_scope: "portfolio_account",
      target: String(account.id),
      alert_type: "portfolio_concentration",
      parameters: {},
      ...NO_COOLDOWN,
    });
    const result = await evaluateAlertRules({ deliver, dryRun: true });
    const of = (id: number) => result.checked.filter((c) => c.rule_id === id);
    expect(of(holdings.id).map((c) => c.target)).toEqual(["600519"]);
    expect(["triggered", "not_triggered"]).toContain(of(holdings.id)[0]!.status);
    // One holding is 100 % of the account: above the 30 % limit.
    expect(of(concentration.id)).toEqual([
      expect.objectContaining({
        target: String(account.id),
        status: "triggered",
        observed_value: 100,
        threshold: 30,
        display_target: `main (#${account.id})`,
      }),
    ]);
    await db().portfolioTrade.deleteMany();
    await db().portfolioPosition.deleteMany();
  });

  it("market light rules read the same temperature as the market review; a score drop compares with the previous day's", async () => {
    const market = reviewMarket(await marketOverview("cn"), "zh", OPEN);
    const light = market.market_light;
    expect(light.score).not.toBeNull();
    const status = await rule({
      target_scope: "market",
      target: "CN",
      alert_type: "market_light_status",
      parameters: { statuses: ["red", "yellow"] },
      ...NO_COOLDOWN,
    });
    expect(status.target).toBe("cn");
    const drop = await rule({
      target_scope: "market",
      target: "cn",
      alert_type: "market_light_score_drop",
      parameters: { min_drop: 5 },
      ...NO_COOLDOWN,
    });
    const first = await evaluateAlertRules({ deliver });
    const of = (id: number) => first.checked.find((c) => c.rule_id === id)!;
    expect(of(status.id)).toMatchObject({
      observed_value: light.score,
      data_timestamp: market.date,
      status: light.light === "green" ? "not_triggered" : "triggered",
    });
    // Nothing earlier to compare with: skipped, recorded once; the reading is remembered for the next day.
    expect(of(drop.id)).toMatchObject({ status: "skipped", record_status: "skipped" });
    const state = await db().alertTargetState.findUniqueOrThrow({
      where: { ruleId_target: { ruleId: drop.id, target: "cn" } },
    });
    expect(JSON.parse(state.memo!)).toEqual({ days: [{ date: market.date, score: light.score }] });
    // The previous trading day read 20 points higher.
    await db().alertTargetState.update({
      where: { id: state.id },
      data: { memo: JSON.stringify({ days: [{ date: "2026-11-18", score: light.score! + 20 }] }) },
    });
    const second = await evaluateAlertRules({ deliver, ruleIds: [drop.id] });
    expect(second.checked[0]).toMatchObject({ status: "triggered", observed_value: light.score, threshold: 5 });
    expect(second.triggers[0]!.diagnostics).toMatchObject({
      prev_trade_date: "2026-11-18",
      prev_score: light.score! + 20,
      drop: 20,
    });
  });

  it("with the real notifier: a crossing reaches a local webhook once, the cooldown holds, and the notification records say so", async () => {
    const receiver = await startReceiver();
    // The receiver listens on 127.0.0.1, which the outbound policy refuses by default.
    database.useSettings({
      MARKET_DATA_SOURCES: "sample",
      CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/hook`,
      NOTIFICATION_RETRY_BASE_DELAY_MS: "1",
      OUTBOUND_ALLOW_PRIVATE: "true",
    });
    try {
      const price = await samplePrice("600519");
      const r = await rule({
        alert_type: "price_cross",
        target: "600519",
        parameters: { direction: "above", price: price - 1 },
        cooldown_policy: { cooldown_seconds: 1800 },
      });
      const first = await evaluateAlertRules({ deliver: defaultAlertDeliver });
      expect(first.triggers[0]!.diagnostics).toMatchObject({ delivery_status: "sent" });
      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0]!.json).toMatchObject({ kind: "alert", related_id: String(first.triggers[0]!.id) });
      expect(
        (await listAlertNotifications({ page: 1, page_size: 20, trigger_id: first.triggers[0]!.id })).items,
      ).toEqual([expect.objectContaining({ channel: "custom", success: true, error_code: null, attempt: 1 })]);
      expect((await evaluateAlertRules({ deliver: defaultAlertDeliver })).triggers).toHaveLength(0);
      await updateAlertRule(r.id, { parameters: { direction: "above", price: price - 2 } });
      setClock(() => new Date(OPEN.getTime() + 20 * 60_000));
      expect((await evaluateAlertRules({ deliver: defaultAlertDeliver })).triggers[0]!.diagnostics).toMatchObject({
        delivery_status: "suppressed",
      });
      await updateAlertRule(r.id, { parameters: { direction: "above", price: price - 3 } });
      setClock(() => new Date(OPEN.getTime() + 31 * 60_000));
      expect((await evaluateAlertRules({ deliver: defaultAlertDeliver })).triggers[0]!.diagnostics).toMatchObject({
        delivery_status: "sent",
      });
      expect(receiver.requests).toHaveLength(2);
      const failures = await listAlertNotifications({ page: 1, page_size: 20, success: false });
      expect(failures.items.map((n) => n.error_code)).toEqual(["cooldown_active"]);
    } finally {
      await receiver.close();
    }
  });

  it("without a channel a firing's notification record says no_channel", async () => {
    const price = await samplePrice("600519");
    await rule({ alert_type: "price_cross", target: "600519", parameters: { direction: "above", price: price - 1 } });
    const fired = await evaluateAlertRules({ deliver: defaultAlertDeliver });
    expect(fired.triggers[0]!.diagnostics).toMatchObject({ delivery_status: "suppressed" });
    expect((await listAlertNotifications({ page: 1, page_size: 20 })).items).toEqual([
      expect.objectContaining({
        trigger_id: fired.triggers[0]!.id,
        channel: "none",
        success: false,
        error_code: "no_channel",
        diagnostics: "no_channel: no notification channel is enabled for alerts",
      }),
    ]);
  });
});
