import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZPortfolioRisk } from "@/lib/portfolio/risk-schema";
import { ZAccount, ZPositionList, ZTrade, ZTradeList } from "@/lib/portfolio/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";

// Portfolio over HTTP: accounts, trades, CSV import, cached positions and the risk report (spec 4.6).

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ MARKET_DATA_SOURCES: "sample", PORTFOLIO_FX_RATES: "USD=7,HKD=0.9" });
});
afterAll(() => server?.stop());

function call(method: string, path: string, body?: unknown) {
  return fetch(`${server.baseUrl}/api/v1/portfolio${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** POST /imports/csv/commit as multipart, the file from text. */
function upload(fields: Record<string, string>, csv: string) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("file", new File([csv], "trades.csv", { type: "text/csv" }));
  return fetch(`${server.baseUrl}/api/v1/portfolio/imports/csv/commit`, { method: "POST", body: form });
}

async function json(res: Response, status: number): Promise<unknown> {
  expect(res.status, await res.clone().text()).toBe(status);
  return res.json();
}

describe("portfolio API (spec 4.6)", () => {
  it("account → trades → positions (FIFO and average cost) → risk figures recomputed here from the bars", async () => {
    const account = ZAccount.parse(await json(await call("POST", "/accounts", { name: "main" }), 200));
    expect(account).toMatchObject({ base_currency: "CNY", market: "cn", is_active: true, trade_count: 0 });
    for (const trade of [
      { side: "buy", symbol: "600519", quantity: 100, price: 1400, trade_date: "2026-06-01" },
      { side: "buy", symbol: "600519.SH", quantity: 100, price: 1600, trade_date: "2026-07-01" },
      { side: "sell", symbol: "sh600519", quantity: 100, price: 1700, trade_date: "2026-08-03" },
    ]) {
      ZTrade.parse(await json(await call("POST", "/trades", { account_id: account.id, fee: 0, ...trade }), 200));
    }
    const positions = ZPositionList.parse(await json(await call("GET", `/positions?account_id=${account.id}`), 200));
    expect(positions.items).toEqual([
      expect.objectContaining({
        symbol: "600519",
        quantity: 100,
        avg_cost: 1500,
        fifo_cost: 1600,
        realized_pnl_fifo: 30_000,
        realized_pnl_avg: 20_000,
      }),
    ]);

    const fifo = ZPortfolioRisk.parse(
      await json(await call("GET", `/risk?account_id=${account.id}&as_of=2026-11-20&cost_method=fifo`), 200),
    );
    const avg = ZPortfolioRisk.parse(
      await json(await call("GET", `/risk?account_id=${account.id}&as_of=2026-11-20&cost_method=avg`), 200),
    );
    const position = fifo.positions[0]!;
    expect(position.price_date).toBe("2026-11-20");
    expect(position.market_value).toBeCloseTo(100 * position.last_price!, 2);
    expect(position.unrealized_pnl).toBeCloseTo(100 * (position.last_price! - 1600), 1);
    expect(avg.positions[0]!.unrealized_pnl).toBeCloseTo(100 * (position.last_price! - 1500), 1);
    expect(fifo.concentration).toMatchObject({ top_weight_pct: 100, hhi: 1, alert: true });
    expect(fifo.warnings.map((w) => w.code)).toContain("concentration");
  });

  it("cost_method other than fifo|avg is 400; a malformed as_of or account_id is 422; an unknown account 404", async () => {
    expect(await json(await call("GET", "/risk?cost_method=lifo"), 400)).toMatchObject({ error: "validation_error" });
    await json(await call("GET", "/risk?as_of=2026-13-01"), 422);
    await json(await call("GET", "/risk?as_of=yesterday"), 422);
    await json(await call("GET", "/risk?account_id=abc"), 422);
    await json(await call("GET", "/risk?account_id=99999"), 404);
    const empty = ZPortfolioRisk.parse(await json(await call("GET", "/risk"), 200));
    expect(empty.cost_method).toBe("fifo");
  });

  it("an oversell is 409; a CSV without a needed column is refused, a bad line fails alone; trades page; delete deactivates", async () => {
    const account = ZAccount.parse(
      await json(await call("POST", "/accounts", { name: "csv", market: "us", base_currency: "USD" }), 200),
    );
    expect(
      await json(
        await call("POST", "/trades", {
          account_id: account.id,
          side: "sell",
          symbol: "AAPL",
          quantity: 1,
          price: 100,
          trade_date: "2026-06-01",
        }),
        409,
      ),
    ).toMatchObject({ error: "portfolio_oversell" });
    const missing = await json(
      await upload(
        { account_id: String(account.id), broker: "generic", dry_run: "false" },
        "date,side,code,quantity\n2026-06-01,buy,AAPL,10\n",
      ),
      400,
    );
    expect(missing).toMatchObject({ error: "validation_error", message: expect.stringContaining("price") });
    const partial = await json(
      await upload(
        { account_id: String(account.id), broker: "generic", dry_run: "true" },
        "date,side,code,quantity,price\n2026-06-01,buy,AAPL,10,150\n2026-06-02,buy,NOTACODE123,1,1\n",
      ),
      200,
    );
    expect(partial).toMatchObject({
      inserted_count: 1,
      failed_count: 1,
      dry_run: true,
      errors: [expect.stringContaining("line 3")],
    });
    expect(
      await json(
        await upload(
          { account_id: String(account.id), broker: "generic", dry_run: "false" },
          "date,side,code,quantity,price,fee\n2026-06-01,buy,AAPL,10,150,1\n2026-06-02,buy,TSLA,5,200,0\n",
        ),
        200,
      ),
    ).toMatchObject({
      account_id: account.id,
      inserted_count: 2,
      duplicate_count: 0,
    });
    const page = ZTradeList.parse(await json(await call("GET", `/trades?account_id=${account.id}&page_size=1`), 200));
    expect(page).toMatchObject({ total: 2, page: 1, page_size: 1 });
    expect(page.items[0]!.symbol).toBe("TSLA");
    await json(await call("GET", "/trades?page_size=101"), 422);
    expect(await json(await call("DELETE", `/accounts/${account.id}`), 200)).toEqual({ deleted: 1 });
    // Soft: the trades stay, the account leaves the default list.
    expect(ZTradeList.parse(await json(await call("GET", `/trades?account_id=${account.id}`), 200)).total).toBe(2);
    const listed = (await json(await call("GET", "/accounts?include_inactive=false"), 200)) as {
      accounts: { id: number }[];
    };
    expect(listed.accounts.map((a) => a.id)).not.toContain(account.id);
    await json(await call("DELETE", "/accounts/99999"), 404);
  });
});
