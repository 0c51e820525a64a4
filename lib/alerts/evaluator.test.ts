import { beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/lib/db/testing/temp-database";
import { getQuote } from "@/lib/market";
import { clearQuoteCache } from "@/lib/market/quote-cache";
import { startReceiver } from "@/lib/notify/testing/receiver";
import { defaultAlertDeliver } from "./deliver";
import { evaluateAlertRules, type AlertMessage, type DeliveryOutcome } from "./evaluator";
import { createAlertRule, resolveAlertTarget, updateAlertRule } from "./rules";
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

beforeEach(async () => {
  await db().alertTrigger.deleteMany();
  await db().alertRule.deleteMany();
  sent.length = 0;
  nextOutcome = "sent";
  clearQuoteCache();
  setClock(() => OPEN);
});

async function samplePrice(code: string): Promise<number> {
  return (await getQuote(resolveAlertTarget(code))).data.price;
}

describe("alert evaluator (issue 9 item 2)", () => {
  it("a crossing fires once: stored as a trigger and sent; it re-arms only after the condition was false", async () => {
    const price = await samplePrice("600519");
    const rule = await createAlertRule({ alert_type: "price_above", target: "sh600519", parameters: { price: price - 1 }, severity: "warning", enabled: true, cooldown_minutes: 0 });
    expect(rule.target).toBe("600519");

    const first = await evaluateAlertRules({ deliver });
    expect(first.triggers).toHaveLength(1);
    expect(first.triggers[0]).toMatchObject({ rule_id: rule.id, target: "600519", observed_value: price, threshold: price - 1, status: "sent", data_source: "sample" });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain("600519");

    // Still above: the same crossing does not fire again.
    expect((await evaluateAlertRules({ deliver })).triggers).toHaveLength(0);
    // The condition turns false (new threshold above the price re-arms through PATCH too), then true again.
    await updateAlertRule(rule.id, { parameters: { price: price + 1 } });
    expect((await evaluateAlertRules({ deliver })).triggers).toHaveLength(0);
    await updateAlertRule(rule.id, { parameters: { price: price - 1 } });
    expect((await evaluateAlertRules({ deliver })).triggers).toHaveLength(1);
    expect(sent).toHaveLength(2);
  });

  it("a firing inside the cooldown is stored as suppressed and not sent", async () => {
    const price = await samplePrice("AAPL");
    const at = new Date("2026-11-19T15:00:00Z"); // 10:00 in New York
    setClock(() => at);
    const rule = await createAlertRule({ alert_type: "price_below", target: "AAPL", parameters: { price: price + 1 }, severity: "info", enabled: true, cooldown_minutes: 30 });
    expect((await evaluateAlertRules({ deliver })).triggers[0]!.status).toBe("sent");
    await updateAlertRule(rule.id, { parameters: { price: price + 2 } }); // re-arms
    setClock(() => new Date(at.getTime() + 10 * 60_000));
    const second = await evaluateAlertRules({ deliver });
    expect(second.triggers[0]!.status).toBe("suppressed");
    expect(sent).toHaveLength(1);
    const listed = await listAlertTriggers({ page: 1, page_size: 20, status: "suppressed" });
    expect(listed.total).toBe(1);
  });

  it("quote rules wait for trading hours; the change and volume-ratio rules compare with the quote's fields", async () => {
    setClock(() => CLOSED);
    const quote = (await getQuote(resolveAlertTarget("000001"))).data;
    await createAlertRule({ alert_type: "change_pct_beyond", target: "000001", parameters: { change_pct: Math.max(0.01, Math.abs(quote.change_pct) - 0.005) }, severity: "warning", enabled: true, cooldown_minutes: 0 });
    await createAlertRule({ alert_type: "volume_ratio_above", target: "000001", parameters: { ratio: 1000 }, severity: "warning", enabled: true, cooldown_minutes: 0 });
    const closed = await evaluateAlertRules({ deliver });
    expect(closed.checked.map((c) => c.evaluated)).toEqual([false, false]);
    expect(closed.checked[0]!.reason).toMatch(/closed/);
    setClock(() => OPEN);
    const open = await evaluateAlertRules({ deliver });
    expect(open.checked.map((c) => c.met)).toEqual([true, false]);
    expect(open.triggers).toHaveLength(1);
    expect(open.triggers[0]!.alert_type).toBe("change_pct_beyond");
  });

  it("a failed delivery is stored as failed; a disabled rule is not evaluated; a dry run stores nothing", async () => {
    const price = await samplePrice("600519");
    const rule = await createAlertRule({ alert_type: "price_above", target: "600519", parameters: { price: price / 2 }, severity: "critical", enabled: true, cooldown_minutes: 0 });
    const dry = await evaluateAlertRules({ deliver, dryRun: true });
    expect(dry.checked[0]!.met).toBe(true);
    expect(await db().alertTrigger.count()).toBe(0);
    nextOutcome = "failed";
    expect((await evaluateAlertRules({ deliver })).triggers[0]!.status).toBe("failed");
    await updateAlertRule(rule.id, { enabled: false, parameters: { price: price / 2 } });
    expect((await evaluateAlertRules({ deliver })).checked).toHaveLength(0);
  });

  it("signal rules fire once per new decision signal of the action, and never for signals older than the rule", async () => {
    const base = {
      stockCode: "600519", market: "cn", assetType: "stock", targetKey: "stock:cn:600519", sourceType: "analysis", triggerSource: "analysis",
      horizon: "5d", planQuality: "complete", status: "active", createdAt: OPEN, updatedAt: OPEN,
    };
    await db().decisionSignal.create({ data: { ...base, action: "buy" } });
    await createAlertRule({ alert_type: "signal_action", target: "600519", parameters: { action: "buy" }, severity: "info", enabled: true, cooldown_minutes: 0 });
    expect((await evaluateAlertRules({ deliver })).triggers).toHaveLength(0);
    await db().decisionSignal.create({ data: { ...base, action: "sell" } });
    const newBuy = await db().decisionSignal.create({ data: { ...base, action: "buy", score: 71 } });
    const fired = await evaluateAlertRules({ deliver });
    expect(fired.triggers).toHaveLength(1);
    expect(fired.triggers[0]).toMatchObject({ observed_value: 71, reason: `new buy decision signal #${newBuy.id}` });
    expect((await evaluateAlertRules({ deliver })).triggers).toHaveLength(0);
  });

  it("deleting a rule keeps its triggers with a null rule_id", async () => {
    const price = await samplePrice("600519");
    const rule = await createAlertRule({ alert_type: "price_above", target: "600519", parameters: { price: price / 2 }, severity: "warning", enabled: true, cooldown_minutes: 0 });
    await evaluateAlertRules({ deliver });
    await db().alertRule.delete({ where: { id: rule.id } });
    const listed = await listAlertTriggers({ page: 1, page_size: 20, target: "sh600519" });
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]!.rule_id).toBeNull();
  });

  it("with the real notifier: a crossing at a controlled time reaches a local webhook once, and the cooldown holds", async () => {
    const receiver = await startReceiver();
    // The receiver listens on 127.0.0.1, which the outbound policy refuses by default.
    database.useSettings({ MARKET_DATA_SOURCES: "sample", CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/hook`, NOTIFICATION_RETRY_BASE_DELAY_MS: "1", OUTBOUND_ALLOW_PRIVATE: "true" });
    try {
      const price = await samplePrice("600519");
      const rule = await createAlertRule({ alert_type: "price_above", target: "600519", parameters: { price: price - 1 }, severity: "warning", enabled: true, cooldown_minutes: 30 });
      const first = await evaluateAlertRules({ deliver: defaultAlertDeliver });
      expect(first.triggers[0]!.status).toBe("sent");
      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0]!.json).toMatchObject({ kind: "alert", related_id: String(first.triggers[0]!.id) });
      expect((await evaluateAlertRules({ deliver: defaultAlertDeliver })).triggers).toHaveLength(0);
      await updateAlertRule(rule.id, { parameters: { price: price - 2 } });
      setClock(() => new Date(OPEN.getTime() + 20 * 60_000));
      expect((await evaluateAlertRules({ deliver: defaultAlertDeliver })).triggers[0]!.status).toBe("suppressed");
      await updateAlertRule(rule.id, { parameters: { price: price - 3 } });
      setClock(() => new Date(OPEN.getTime() + 31 * 60_000));
      expect((await evaluateAlertRules({ deliver: defaultAlertDeliver })).triggers[0]!.status).toBe("sent");
      expect(receiver.requests).toHaveLength(2);
    } finally {
      database.useSettings({ MARKET_DATA_SOURCES: "sample" });
      await receiver.close();
    }
  });
});
