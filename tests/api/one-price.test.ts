import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPrice } from "@/lib/analysis/engine/language";
import { ZAnalysisResultResponse } from "@/lib/analysis/schemas";
import { ZAlertRule, ZAlertTestResult } from "@/lib/alerts/schemas";
import { ZPortfolioRisk } from "@/lib/portfolio/risk-schema";
import { ZSnapshot } from "@/lib/portfolio/snapshot-schema";
import { ZAccount } from "@/lib/portfolio/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";

// One price over HTTP (sample data): for the same stock at the same moment, the report's price, the share
// card's price tile, the portfolio position's last price and the price an alert check sees are one figure. One
// stock per market, so at almost any hour of a weekday one of them is intraday (its quote newer than its last
// final bar), the case where valuing at closes by date used to differ.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ MARKET_DATA_SOURCES: "sample", PORTFOLIO_FX_RATES: "USD=7,HKD=0.9" });
});
afterAll(() => server?.stop());

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
  return res.json();
}

/** The texts of the card page in document order (every leaf div holds one text). */
function cardTexts(html: string): string[] {
  return [...html.matchAll(/>([^<>]+)<\/div>/g)].map((m) => m[1]!.trim());
}

const CODES = ["600519", "00700", "AAPL"];

describe("one price everywhere (report, share card, portfolio, alerts)", () => {
  it(
    "report price == share card price tile == portfolio last price == alert check's price, for each market",
    { timeout: 90_000 },
    async () => {
      const account = ZAccount.parse(await call("POST", "/portfolio/accounts", { name: "one price" }));
      for (const code of CODES) {
        await call("POST", "/portfolio/trades", {
          account_id: account.id,
          side: "buy",
          symbol: code,
          quantity: 10,
          price: 100,
          fee: 0,
          trade_date: "2026-01-05",
        });
      }
      for (const code of CODES) {
        const result = ZAnalysisResultResponse.parse(
          await call("POST", "/analysis/analyze", { stock_code: code, notify: false }),
        );
        const { current_price: price, id } = result.report.meta;
        expect(price, code).not.toBeNull();
        const snapshot = result.report.details.context_snapshot as { as_of: { date: string; basis: string } };

        const html = await (await fetch(`${server.baseUrl}/api/v1/history/${id}/share-image-html`)).text();
        const texts = cardTexts(html);
        const label = texts.indexOf("现价");
        expect(label, `${code}: a price tile`).toBeGreaterThanOrEqual(0);
        expect(texts[label + 1], `${code}: share card`).toBe(formatPrice(price!));

        const risk = ZPortfolioRisk.parse(await call("GET", `/portfolio/risk?account_id=${account.id}`));
        const position = risk.positions.find((p) => p.symbol === result.stock_code);
        expect(position, code).toBeDefined();
        expect(position!.last_price, `${code}: portfolio`).toBe(price);
        expect(position!.price_date, code).toBe(snapshot.as_of.date);
        expect(position!.price_source, code).toBe(
          snapshot.as_of.basis === "quote" ? "realtime_quote" : "history_close",
        );
        const book = ZSnapshot.parse(
          await call("GET", `/portfolio/snapshot?account_id=${account.id}&cost_method=fifo`),
        );
        expect(
          book.accounts[0]!.positions.find((p) => p.symbol === result.stock_code),
          `${code}: snapshot`,
        ).toMatchObject({
          last_price: price,
          price_date: snapshot.as_of.date,
          price_source: position!.price_source,
        });

        const rule = ZAlertRule.parse(
          await call("POST", "/alerts/rules", {
            alert_type: "price_cross",
            target: code,
            parameters: { direction: "above", price: Math.round(price! * 0.5 * 100) / 100 },
          }),
        );
        const check = ZAlertTestResult.parse(await call("POST", `/alerts/rules/${rule.id}/test`));
        expect(check, `${code}: alert`).toMatchObject({ status: "triggered", triggered: true, observed_value: price });
      }
    },
  );
});
