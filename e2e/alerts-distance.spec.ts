import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { withE2eDb } from "./fixtures/e2e-db";
import { applySettings, readEnvText, restoreEnvText } from "./fixtures/env-file";
import { expectNoHorizontalOverflow, screenshot, SCREENSHOT_DIR } from "./fixtures/ui";

// The Alerts page's rules show the current value and the distance to the trigger in percent, read on
// the server on sample data. The price is the one price (the same /quote reads); an indicator rule shows the value
// the evaluator compares (its dry run's observed value) and no distance; a disabled rule shows nothing. Alert rules
// and their states are emptied before and after.

interface Rule {
  id: number;
}

let original: string | null = null;

const clearAlerts = () =>
  withE2eDb((db) => {
    db.prepare("DELETE FROM alert_trigger").run();
    db.prepare("DELETE FROM alert_target_state").run();
    db.prepare("DELETE FROM alert_rule").run();
  });

test.beforeAll(async ({ request }) => {
  original = readEnvText();
  await applySettings(request, { MARKET_DATA_SOURCES: "sample", SAMPLE_LATENCY_MS: "0", STOCK_LIST: "600519,000001" });
  clearAlerts();
});
test.afterAll(() => {
  restoreEnvText(original);
  clearAlerts();
});

/** The one price of a stock, read through the chat's /quote command (lib/market current price). */
async function onePrice(request: APIRequestContext, code: string): Promise<number> {
  const res = await request.post("/api/v1/agent/chat", { data: { message: `/quote ${code}` } });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { tool_calls: { output: { price: number } }[] };
  const price = body.tool_calls[0]!.output.price;
  expect(price, `a sample price for ${code}`).toBeGreaterThan(0);
  return price;
}

async function createRule(request: APIRequestContext, data: Record<string, unknown>): Promise<Rule> {
  const res = await request.post("/api/v1/alerts/rules", { data });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Rule;
}

const ruleRow = (page: Page, id: number) => page.locator(`[data-testid="alert-rule-row"][data-rule-id="${id}"]`);
const round2 = (v: number) => Math.round(v * 100) / 100;
const plain = (v: number) => String(Math.round(v * 10_000) / 10_000);
const signed = (v: number) => `${v > 0 ? "+" : ""}${v.toFixed(2)}%`;

test("21 §6: a price rule shows the one price and the distance to its threshold; an RSI rule its value only", async ({
  page,
  request,
}) => {
  clearAlerts();
  const price = await onePrice(request, "600519");
  const upLevel = round2(price * 1.05);
  const downLevel = round2(price * 0.97);
  const up = await createRule(request, {
    alert_type: "price_cross",
    target: "600519",
    parameters: { direction: "above", price: upLevel },
  });
  const down = await createRule(request, {
    alert_type: "price_cross",
    target: "sh600519",
    parameters: { direction: "below", price: downLevel },
  });
  const rsi = await createRule(request, {
    alert_type: "rsi_threshold",
    target: "600519",
    parameters: { direction: "above", period: 12, threshold: 70 },
  });
  const off = await createRule(request, {
    alert_type: "price_cross",
    target: "600519",
    parameters: { direction: "above", price: upLevel },
    enabled: false,
  });
  const watch = await createRule(request, {
    target_scope: "watchlist",
    alert_type: "price_cross",
    target: "default",
    parameters: { direction: "above", price: upLevel },
  });

  await page.goto("/alerts");
  await expect(page.getByRole("columnheader", { name: "现值 · 距触发" })).toBeVisible();

  // Above: the one price, and (threshold − price) / price in percent.
  const upRow = ruleRow(page, up.id);
  await expect(upRow.getByTestId("alert-rule-current")).toHaveText(`现价 ${plain(price)}`);
  await expect(upRow.getByTestId("alert-rule-current")).toHaveAttribute("data-value", String(price));
  const upDistance = ((upLevel - price) / price) * 100;
  await expect(upRow.getByTestId("alert-rule-distance")).toHaveText(`距触发 ${signed(upDistance)}`);
  expect(Number(await upRow.getByTestId("alert-rule-distance").getAttribute("data-distance"))).toBeCloseTo(
    upDistance,
    8,
  );
  expect(upDistance).toBeGreaterThan(4.9);
  await expect(upRow.getByTestId("alert-rule-reached")).toHaveCount(0);

  // Below: a negative move.
  const downDistance = ((downLevel - price) / price) * 100;
  await expect(ruleRow(page, down.id).getByTestId("alert-rule-distance")).toHaveText(`距触发 ${signed(downDistance)}`);
  expect(downDistance).toBeLessThan(-2.9);

  // RSI: the value the evaluator compares (the rule's dry run), no distance.
  const dryRun = (await (await request.post(`/api/v1/alerts/rules/${rsi.id}/test`)).json()) as {
    target_results: { observed_value: number | null }[];
  };
  const observed = dryRun.target_results[0]!.observed_value;
  expect(observed, "the dry run reads an RSI").not.toBeNull();
  const rsiRow = ruleRow(page, rsi.id);
  await expect(rsiRow.getByTestId("alert-rule-current")).toHaveText(`RSI ${plain(observed!)}`);
  await expect(rsiRow.getByTestId("alert-rule-distance")).toHaveCount(0);

  // A disabled rule reads nothing; a watchlist rule shows its closest stock and how many more.
  await expect(ruleRow(page, off.id).getByTestId("alert-rule-reading")).toHaveAttribute("data-state", "none");
  const watchRow = ruleRow(page, watch.id);
  await expect(watchRow.getByTestId("alert-rule-reading")).toHaveAttribute("data-target", "600519");
  await expect(watchRow.getByTestId("alert-rule-current")).toHaveAttribute("data-value", String(price));
  await expect(watchRow.getByTestId("alert-rule-reading")).toContainText("另 1 个");
  await screenshot(page, { path: `${SCREENSHOT_DIR}/alerts-distance.png`, fullPage: true });
});

test("21 §6: the distances read in English, and the page keeps to a phone's width", async ({
  page,
  request,
  context,
  baseURL,
}) => {
  clearAlerts();
  const price = await onePrice(request, "600519");
  const level = round2(price * 1.1);
  const rule = await createRule(request, {
    alert_type: "price_cross",
    target: "600519",
    parameters: { direction: "above", price: level },
  });

  await context.addCookies([{ name: "dsa_lang", value: "en", url: baseURL! }]);
  await page.goto("/alerts");
  await expect(page.getByRole("columnheader", { name: "Now · to trigger" })).toBeVisible();
  await expect(ruleRow(page, rule.id).getByTestId("alert-rule-current")).toHaveText(`Price ${plain(price)}`);
  await expect(ruleRow(page, rule.id).getByTestId("alert-rule-distance")).toHaveText(
    `${signed(((level - price) / price) * 100)} to trigger`,
  );
  await screenshot(page, { path: `${SCREENSHOT_DIR}/alerts-distance-en.png`, fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(ruleRow(page, rule.id).getByTestId("alert-rule-current")).toHaveAttribute("data-value", String(price));
  await expectNoHorizontalOverflow(page);
  await screenshot(page, { path: `${SCREENSHOT_DIR}/alerts-distance-phone.png`, fullPage: true });
});
