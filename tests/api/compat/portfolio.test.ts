import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKind } from "@/lib/db/database-url";
import { startTestServer, type TestServer } from "../../setup/api-server";
import { openServerDatabase } from "../../setup/server-database";
import { expectKeys, loginCookie, referenceClient, type Call, type Wire } from "./reference-client";

// docs/api.md §12.1: the reference's portfolio page against DSA, on sample market data, in both auth modes. Every
// request is what the reference's client sends; every field §12 marks as read (R) or used (U) is asserted.

const ACCOUNT_KEYS = [
  "id",
  "name",
  "owner_id",
  "broker",
  "market",
  "base_currency",
  "is_active",
  "created_at",
  "updated_at",
];
const SNAPSHOT_KEYS = [
  "as_of",
  "cost_method",
  "currency",
  "account_count",
  "total_cash",
  "total_market_value",
  "total_equity",
  "realized_pnl",
  "unrealized_pnl",
  "fee_total",
  "tax_total",
  "fx_stale",
  "accounts",
];
const ACCOUNT_SNAPSHOT_KEYS = [
  "account_id",
  "account_name",
  "owner_id",
  "broker",
  "market",
  "base_currency",
  "as_of",
  "cost_method",
  "total_cash",
  "total_market_value",
  "total_equity",
  "realized_pnl",
  "unrealized_pnl",
  "fee_total",
  "tax_total",
  "fx_stale",
  "positions",
];
const POSITION_KEYS = [
  "symbol",
  "market",
  "currency",
  "quantity",
  "avg_cost",
  "total_cost",
  "last_price",
  "market_value_base",
  "unrealized_pnl_base",
  "unrealized_pnl_pct",
  "valuation_currency",
  "price_source",
  "price_provider",
  "price_date",
  "price_stale",
  "price_available",
];
const TRADE_KEYS = [
  "id",
  "account_id",
  "trade_uid",
  "symbol",
  "market",
  "currency",
  "trade_date",
  "side",
  "quantity",
  "price",
  "fee",
  "tax",
  "note",
  "created_at",
];

function suite(mode: "auth off" | "auth on") {
  describe(`§12.1 portfolio with ${mode}`, () => {
    let server: TestServer;
    let call: Call;
    let cookie: string | undefined;
    let accountId = 0;

    /** multipart/form-data as the reference's client posts its import forms (FormData: text fields and the file). */
    async function multipart(
      pathname: string,
      fields: Record<string, string>,
      fixture: string,
    ): Promise<{ status: number; body: Wire }> {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      form.append(
        "file",
        new File([fs.readFileSync(path.resolve(process.cwd(), "tests/fixtures/broker-csv", fixture))], fixture),
      );
      const res = await fetch(`${server.baseUrl}${pathname}`, {
        method: "POST",
        body: form,
        headers: { origin: server.baseUrl, ...(cookie ? { cookie } : {}) },
      });
      return { status: res.status, body: await res.json() };
    }

    beforeAll(async () => {
      // SAMPLE_LATENCY_MS keeps an analysis task running long enough to meet its duplicate (§12.1.14).
      server = await startTestServer({
        MARKET_DATA_SOURCES: "sample",
        SAMPLE_LATENCY_MS: "150",
        PORTFOLIO_FX_RATES: "USD=7.2,HKD=0.92",
        ...(mode === "auth on" ? { ADMIN_AUTH_ENABLED: "true" } : {}),
      });
      cookie = mode === "auth on" ? await loginCookie(server.baseUrl) : undefined;
      call = referenceClient(server.baseUrl, cookie);
    });
    afterAll(() => server?.stop());

    if (mode === "auth on") {
      it("without the session the portfolio endpoints answer 401 (the client redirects to /login)", async () => {
        const anon = referenceClient(server.baseUrl);
        for (const [method, path] of [
          ["GET", "/api/v1/portfolio/accounts?include_inactive=false"],
          ["POST", "/api/v1/portfolio/accounts"],
          ["GET", "/api/v1/portfolio/trades?page=1&page_size=20"],
          ["POST", "/api/v1/portfolio/trades"],
          ["GET", "/api/v1/portfolio/snapshot?cost_method=fifo"],
          ["GET", "/api/v1/portfolio/cash-ledger?page=1&page_size=20"],
          ["POST", "/api/v1/portfolio/cash-ledger"],
          ["GET", "/api/v1/portfolio/corporate-actions?page=1&page_size=20"],
          ["POST", "/api/v1/portfolio/corporate-actions"],
          ["POST", "/api/v1/portfolio/fx/refresh"],
          ["POST", "/api/v1/portfolio/positions/600519/analysis"],
          ["GET", "/api/v1/portfolio/imports/csv/brokers"],
          ["POST", "/api/v1/portfolio/imports/csv/parse"],
          ["GET", "/api/v1/portfolio/risk?cost_method=fifo"],
        ] as const) {
          expect((await anon(method, path, method === "POST" ? {} : undefined)).status, path).toBe(401);
        }
      });
    }

    it("§12.1.1-2: an empty list is {accounts: []}; the create form's body makes the Account the list then shows", async () => {
      const empty = await call("GET", "/api/v1/portfolio/accounts?include_inactive=false");
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ accounts: [] });

      const created = await call("POST", "/api/v1/portfolio/accounts", {
        name: "Main",
        broker: "Demo",
        market: "cn",
        base_currency: "CNY",
      });
      expect(created.status).toBe(200);
      expectKeys(created.body, ACCOUNT_KEYS);
      expect(created.body).toMatchObject({
        name: "Main",
        broker: "Demo",
        market: "cn",
        base_currency: "CNY",
        is_active: true,
        owner_id: null,
      });
      expect(Number.isInteger(created.body.id)).toBe(true);
      accountId = created.body.id;

      const listed = await call("GET", "/api/v1/portfolio/accounts?include_inactive=false");
      expect(listed.body.accounts).toHaveLength(1);
      const account: Wire = listed.body.accounts[0];
      expectKeys(account, ACCOUNT_KEYS);
      expect(account).toMatchObject({ id: accountId, name: "Main", base_currency: "CNY" });

      const bad = await call("POST", "/api/v1/portfolio/accounts", { name: "", market: "cn", base_currency: "CNY" });
      expect(bad.status).toBe(422);
      expect(bad.body.error).toBe("validation_error");
      expect(typeof bad.body.message).toBe("string");
    });

    it("§12.1.3-4: PUT changes the fields given; DELETE deactivates ({deleted: 1}); unknown ids are 404 not_found", async () => {
      const other = (
        await call("POST", "/api/v1/portfolio/accounts", {
          name: "Side",
          broker: "Demo",
          market: "hk",
          base_currency: "HKD",
        })
      ).body;
      const put = await call("PUT", `/api/v1/portfolio/accounts/${other.id}`, { name: "Side HK", owner_id: "u1" });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({
        id: other.id,
        name: "Side HK",
        owner_id: "u1",
        market: "hk",
        base_currency: "HKD",
        is_active: true,
      });
      const del = await call("DELETE", `/api/v1/portfolio/accounts/${other.id}`);
      expect(del.status).toBe(200);
      expect(del.body).toEqual({ deleted: 1 });
      const active = (await call("GET", "/api/v1/portfolio/accounts?include_inactive=false")).body.accounts.map(
        (a: Wire) => a.id,
      );
      expect(active).not.toContain(other.id);
      const all = (await call("GET", "/api/v1/portfolio/accounts?include_inactive=true")).body.accounts;
      expect(all.find((a: Wire) => a.id === other.id)).toMatchObject({ is_active: false });
      for (const [method, body] of [
        ["PUT", { name: "x" }],
        ["DELETE", undefined],
      ] as const) {
        const missing = await call(method, "/api/v1/portfolio/accounts/999999", body);
        expect(missing.status).toBe(404);
        expect(missing.body.error).toBe("not_found");
      }
    });

    it("§12.1.10: POST /trades answers {id}; GET /trades filters and pages; the 409 codes", async () => {
      const buy = await call("POST", "/api/v1/portfolio/trades", {
        account_id: accountId,
        symbol: "600519",
        trade_date: "2026-06-01",
        side: "buy",
        quantity: 100,
        price: 1400,
        fee: 5,
        tax: 0,
        trade_uid: "B-1",
      });
      expect(buy.status).toBe(200);
      expect(Number.isInteger(buy.body.id)).toBe(true);
      const hk = await call("POST", "/api/v1/portfolio/trades", {
        account_id: accountId,
        symbol: "00700",
        trade_date: "2026-06-02",
        side: "buy",
        quantity: 200,
        price: 380,
        fee: 0,
        tax: 0,
        market: "hk",
        currency: "HKD",
      });
      expect(hk.status).toBe(200);
      const sell = await call("POST", "/api/v1/portfolio/trades", {
        account_id: accountId,
        symbol: "600519",
        trade_date: "2026-07-01",
        side: "sell",
        quantity: 40,
        price: 1500,
        fee: 5,
        tax: 6,
        note: "trim",
      });
      expect(sell.status).toBe(200);

      const page = await call("GET", `/api/v1/portfolio/trades?account_id=${accountId}&page=1&page_size=20`);
      expect(page.status).toBe(200);
      expectKeys(page.body, ["items", "total", "page", "page_size"]);
      expect(page.body).toMatchObject({ total: 3, page: 1, page_size: 20 });
      for (const item of page.body.items) expectKeys(item, TRADE_KEYS);
      expect(page.body.items[0]).toMatchObject({
        symbol: "600519",
        trade_date: "2026-07-01",
        side: "sell",
        quantity: 40,
        price: 1500,
        fee: 5,
        tax: 6,
        note: "trim",
        market: "cn",
        currency: "CNY",
      });
      expect(page.body.items[1]).toMatchObject({ symbol: "00700", market: "hk", currency: "HKD" });
      expect(page.body.items[2]).toMatchObject({ trade_uid: "B-1" });

      const filtered = await call(
        "GET",
        `/api/v1/portfolio/trades?account_id=${accountId}&date_from=2026-06-01&date_to=2026-06-30&symbol=600519&side=buy&page=1&page_size=20`,
      );
      expect(filtered.body.items.map((t: Wire) => t.id)).toEqual([buy.body.id]);
      expect((await call("GET", "/api/v1/portfolio/trades?page_size=101")).status).toBe(422);

      const oversell = await call("POST", "/api/v1/portfolio/trades", {
        account_id: accountId,
        symbol: "600519",
        trade_date: "2026-07-02",
        side: "sell",
        quantity: 61,
        price: 1500,
        fee: 0,
        tax: 0,
      });
      expect(oversell.status).toBe(409);
      expect(oversell.body).toMatchObject({ error: "portfolio_oversell", message: expect.any(String) });
      const duplicate = await call("POST", "/api/v1/portfolio/trades", {
        account_id: accountId,
        symbol: "600519",
        trade_date: "2026-07-02",
        side: "buy",
        quantity: 1,
        price: 1500,
        fee: 0,
        tax: 0,
        trade_uid: "B-1",
      });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.error).toBe("conflict");

      // portfolio_busy: another connection holds SQLite's write lock past the busy timeout. SQLite only: PostgreSQL has
      // no database-wide write lock to hold (its concurrent portfolio writes wait on a per-account lock instead, covered
      // in lib/portfolio/store.test.ts on both databases).
      if (databaseKind(server.databaseUrl) === "sqlite") {
        const database = await openServerDatabase(server);
        try {
          await database.run("BEGIN IMMEDIATE");
          try {
            const busy = await call("POST", "/api/v1/portfolio/trades", {
              account_id: accountId,
              symbol: "600519",
              trade_date: "2026-07-02",
              side: "buy",
              quantity: 1,
              price: 1500,
              fee: 0,
              tax: 0,
            });
            expect(busy.status).toBe(409);
            expect(busy.body.error).toBe("portfolio_busy");
          } finally {
            await database.run("ROLLBACK");
          }
        } finally {
          await database.close();
        }
      }

      const deleted = await call("DELETE", `/api/v1/portfolio/trades/${sell.body.id}`);
      expect(deleted.body).toEqual({ deleted: 1 });
      const gone = await call("DELETE", `/api/v1/portfolio/trades/${sell.body.id}`);
      expect(gone.status).toBe(404);
      expect(gone.body.error).toBe("not_found");
    }, 30_000);

    it("§12.1.5: GET /snapshot?account_id&cost_method (and for all accounts) with the fields the page renders", async () => {
      for (const query of [`account_id=${accountId}&cost_method=fifo`, "cost_method=avg"]) {
        const res = await call("GET", `/api/v1/portfolio/snapshot?${query}`);
        expect(res.status, query).toBe(200);
        expectKeys(res.body, SNAPSHOT_KEYS);
        expect(res.body.account_count).toBe(1);
        for (const key of [
          "total_cash",
          "total_market_value",
          "total_equity",
          "realized_pnl",
          "unrealized_pnl",
          "fee_total",
          "tax_total",
        ])
          expect(typeof res.body[key], key).toBe("number");
        expect(typeof res.body.fx_stale).toBe("boolean");
        const [account] = res.body.accounts;
        expectKeys(account, ACCOUNT_SNAPSHOT_KEYS);
        expect(account).toMatchObject({
          account_id: accountId,
          account_name: "Main",
          base_currency: "CNY",
          market: "cn",
        });
        expect(account.positions.map((p: Wire) => p.symbol).sort()).toEqual(["00700", "600519"]);
        for (const position of account.positions) {
          expectKeys(position, POSITION_KEYS);
          expect(typeof position.quantity).toBe("number");
          expect(typeof position.avg_cost).toBe("number");
          expect(typeof position.last_price).toBe("number");
          expect(["realtime_quote", "history_close", "missing"]).toContain(position.price_source);
          expect(position.valuation_currency).toBe("CNY");
          expect(position.price_available).toBe(true);
        }
        const hk = account.positions.find((p: Wire) => p.symbol === "00700");
        expect(hk.currency).toBe("HKD");
        expect(hk.market_value_base).toBeCloseTo(200 * hk.last_price * 0.92, 1);
      }
      const fifo = (await call("GET", `/api/v1/portfolio/snapshot?account_id=${accountId}&cost_method=fifo`)).body;
      expect(fifo.cost_method).toBe("fifo");
      expect(fifo.accounts[0].positions.find((p: Wire) => p.symbol === "600519").quantity).toBe(100);
      const bad = await call("GET", "/api/v1/portfolio/snapshot?cost_method=lifo");
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe("validation_error");
    });

    it("§12.1.6: GET /risk with the snapshot's query: the blocks the page reads", async () => {
      const res = await call("GET", `/api/v1/portfolio/risk?account_id=${accountId}&cost_method=fifo`);
      expect(res.status).toBe(200);
      const r = res.body;
      expectKeys(r, [
        "as_of",
        "account_id",
        "cost_method",
        "currency",
        "thresholds",
        "concentration",
        "sector_concentration",
        "drawdown",
        "stop_loss",
      ]);
      expect(r).toMatchObject({ account_id: accountId, cost_method: "fifo", currency: "CNY" });
      expectKeys(r.concentration, ["top_weight_pct", "alert", "top_positions"]);
      for (const p of r.concentration.top_positions)
        expectKeys(p, ["symbol", "weight_pct", "market_value_base", "is_alert"]);
      expectKeys(r.sector_concentration, ["top_weight_pct", "alert", "top_sectors", "coverage", "errors"]);
      for (const s of r.sector_concentration.top_sectors)
        expectKeys(s, ["sector", "weight_pct", "market_value_base", "symbol_count", "is_alert"]);
      expectKeys(r.drawdown, ["max_drawdown_pct", "current_drawdown_pct", "alert", "series_points", "fx_stale"]);
      expectKeys(r.stop_loss, ["near_alert", "triggered_count", "near_count", "items"]);
      const snapshot = (await call("GET", `/api/v1/portfolio/snapshot?account_id=${accountId}&cost_method=fifo`)).body;
      expect(r.concentration.total_market_value).toBeCloseTo(snapshot.total_market_value, 2);
      const weights = r.concentration.top_positions.map((p: Wire) => p.weight_pct);
      expect(weights.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(100, 0);
    });

    it("§12.1.11: the cash ledger: POST {id}, GET {items,total,page,page_size} with filters, DELETE {deleted}; the snapshot's cash follows", async () => {
      const before = (await call("GET", `/api/v1/portfolio/snapshot?account_id=${accountId}&cost_method=fifo`)).body
        .total_cash;
      const deposit = await call("POST", "/api/v1/portfolio/cash-ledger", {
        account_id: accountId,
        event_date: "2026-05-01",
        direction: "in",
        amount: 300000,
        note: "funding",
      });
      expect(deposit.status).toBe(200);
      expect(Number.isInteger(deposit.body.id)).toBe(true);
      const usd = await call("POST", "/api/v1/portfolio/cash-ledger", {
        account_id: accountId,
        event_date: "2026-05-02",
        direction: "out",
        amount: 100,
        currency: "USD",
      });
      expect(usd.status).toBe(200);
      const list = await call("GET", `/api/v1/portfolio/cash-ledger?account_id=${accountId}&page=1&page_size=20`);
      expect(list.status).toBe(200);
      expectKeys(list.body, ["items", "total", "page", "page_size"]);
      expect(list.body.total).toBe(2);
      for (const item of list.body.items)
        expectKeys(item, ["id", "account_id", "event_date", "direction", "amount", "currency", "note", "created_at"]);
      expect(list.body.items.find((i: Wire) => i.id === deposit.body.id)).toMatchObject({
        event_date: "2026-05-01",
        direction: "in",
        amount: 300000,
        currency: "CNY",
        note: "funding",
      });
      const outs = await call(
        "GET",
        `/api/v1/portfolio/cash-ledger?account_id=${accountId}&direction=out&date_from=2026-05-01&date_to=2026-05-31&page=1&page_size=20`,
      );
      expect(outs.body.items.map((i: Wire) => i.currency)).toEqual(["USD"]);
      const after = (await call("GET", `/api/v1/portfolio/snapshot?account_id=${accountId}&cost_method=fifo`)).body
        .total_cash;
      expect(after - before).toBeCloseTo(300000 - 100 * 7.2, 2);
      expect((await call("DELETE", `/api/v1/portfolio/cash-ledger/${usd.body.id}`)).body).toEqual({ deleted: 1 });
      const missing = await call("DELETE", `/api/v1/portfolio/cash-ledger/${usd.body.id}`);
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe("not_found");
      expect(
        (
          await call("POST", "/api/v1/portfolio/cash-ledger", {
            account_id: accountId,
            event_date: "2026-05-01",
            direction: "sideways",
            amount: 1,
          })
        ).status,
      ).toBe(422);
    });

    it("§12.1.12: corporate actions: POST {id}, GET with filters, DELETE {deleted}; a split and a dividend move the snapshot", async () => {
      const split = await call("POST", "/api/v1/portfolio/corporate-actions", {
        account_id: accountId,
        symbol: "00700",
        effective_date: "2026-08-01",
        action_type: "split_adjustment",
        split_ratio: 2,
        market: "hk",
      });
      expect(split.status).toBe(200);
      expect(Number.isInteger(split.body.id)).toBe(true);
      const dividend = await call("POST", "/api/v1/portfolio/corporate-actions", {
        account_id: accountId,
        symbol: "600519",
        effective_date: "2026-09-01",
        action_type: "cash_dividend",
        cash_dividend_per_share: 25,
        note: "final",
      });
      expect(dividend.status).toBe(200);
      const list = await call("GET", `/api/v1/portfolio/corporate-actions?account_id=${accountId}&page=1&page_size=20`);
      expectKeys(list.body, ["items", "total", "page", "page_size"]);
      expect(list.body.total).toBe(2);
      for (const item of list.body.items) {
        expectKeys(item, [
          "id",
          "account_id",
          "symbol",
          "market",
          "currency",
          "effective_date",
          "action_type",
          "cash_dividend_per_share",
          "split_ratio",
          "note",
          "created_at",
        ]);
      }
      expect(list.body.items.find((i: Wire) => i.id === split.body.id)).toMatchObject({
        symbol: "00700",
        market: "hk",
        currency: "HKD",
        action_type: "split_adjustment",
        split_ratio: 2,
        cash_dividend_per_share: null,
      });
      const dividends = await call(
        "GET",
        `/api/v1/portfolio/corporate-actions?account_id=${accountId}&symbol=600519&action_type=cash_dividend&date_from=2026-09-01&date_to=2026-09-30&page=1&page_size=20`,
      );
      expect(dividends.body.items).toEqual([
        expect.objectContaining({ id: dividend.body.id, cash_dividend_per_share: 25 }),
      ]);
      const snapshot = (await call("GET", `/api/v1/portfolio/snapshot?account_id=${accountId}&cost_method=fifo`)).body;
      const hk = snapshot.accounts[0].positions.find((p: Wire) => p.symbol === "00700");
      expect(hk.quantity).toBe(400);
      expect(hk.avg_cost).toBeCloseTo(190, 6);
      expect((await call("DELETE", `/api/v1/portfolio/corporate-actions/${split.body.id}`)).body).toEqual({
        deleted: 1,
      });
      expect((await call("DELETE", `/api/v1/portfolio/corporate-actions/${split.body.id}`)).status).toBe(404);
      const bad = await call("POST", "/api/v1/portfolio/corporate-actions", {
        account_id: accountId,
        symbol: "600519",
        effective_date: "2026-09-01",
        action_type: "split_adjustment",
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe("validation_error");
    });

    it("§12.1.13: POST /fx/refresh (no body, account_id in the query) with the counts the page reads", async () => {
      for (const path of [`/api/v1/portfolio/fx/refresh?account_id=${accountId}`, "/api/v1/portfolio/fx/refresh"]) {
        const res = await call("POST", path);
        expect(res.status, path).toBe(200);
        expectKeys(res.body, [
          "as_of",
          "account_count",
          "refresh_enabled",
          "disabled_reason",
          "pair_count",
          "updated_count",
          "stale_count",
          "error_count",
        ]);
        // Main uses CNY and HKD (the 00700 trades; the USD cash entry was deleted above); the sample provider answers.
        expect(res.body).toMatchObject({
          account_count: 1,
          refresh_enabled: true,
          disabled_reason: null,
          pair_count: 1,
          updated_count: 1,
          stale_count: 0,
          error_count: 0,
        });
      }
      const missing = await call("POST", "/api/v1/portfolio/fx/refresh?account_id=999999");
      expect(missing.status).toBe(404);
    });

    it("§12.1.14: POST /positions/{symbol}/analysis answers 202 TaskAccepted; the same stock again is 409 duplicate_task; not held is 404", async () => {
      // force: the task fetches its bars and quote again (SAMPLE_LATENCY_MS each) instead of reading what earlier tests
      // cached, so it is still running when its duplicate arrives (a task on cached data once finished first); a forced
      // request never bypasses a running duplicate. Both are sent together.
      const body = { account_id: accountId, analysis_phase: "auto", force: true };
      const both = await Promise.all(
        ["600519", "sh600519"].map((symbol) =>
          call("POST", `/api/v1/portfolio/positions/${encodeURIComponent(symbol)}/analysis`, body),
        ),
      );
      const accepted = both.find((res) => res.status === 202) ?? both[0]!;
      const duplicate = both.find((res) => res !== accepted)!;
      expect(accepted.status).toBe(202);
      expectKeys(accepted.body, ["task_id", "trace_id", "status", "message", "analysis_phase"]);
      expect(accepted.body).toMatchObject({ status: "pending", analysis_phase: "auto" });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toEqual({
        error: "duplicate_task",
        message: expect.any(String),
        stock_code: "600519",
        existing_task_id: accepted.body.task_id,
      });

      const hk = await call("POST", `/api/v1/portfolio/positions/${encodeURIComponent("00700")}/analysis`, {
        analysis_phase: "postmarket",
        force: true,
      });
      expect(hk.status).toBe(202);
      expect(hk.body.analysis_phase).toBe("postmarket");
      const notHeld = await call("POST", `/api/v1/portfolio/positions/${encodeURIComponent("AAPL")}/analysis`, body);
      expect(notHeld.status).toBe(404);
      expect(notHeld.body.error).toBe("not_found");
      const bad = await call("POST", `/api/v1/portfolio/positions/600519/analysis`, { analysis_phase: "lunch" });
      expect(bad.status).toBe(422);
    });

    it("§12.1.7: GET /imports/csv/brokers lists huatai, citic and cmb (and generic) with aliases and display names", async () => {
      const res = await call("GET", "/api/v1/portfolio/imports/csv/brokers");
      expect(res.status).toBe(200);
      const brokers = res.body.brokers as Wire[];
      for (const b of brokers) {
        expectKeys(b, ["broker", "aliases", "display_name"]);
        expect(Array.isArray(b.aliases)).toBe(true);
      }
      expect(brokers.map((b) => b.broker)).toEqual(expect.arrayContaining(["huatai", "citic", "cmb", "generic"]));
    });

    it("§12.1.8-9: parse then commit (dry run, then for real, then again: duplicates) as multipart forms", async () => {
      const account = (
        await call("POST", "/api/v1/portfolio/accounts", {
          name: "Import",
          broker: "Demo",
          market: "cn",
          base_currency: "CNY",
        })
      ).body;
      for (const [broker, fixture, records] of [
        ["huatai", "huatai.csv", 4],
        ["citic", "citic.csv", 3],
        ["cmb", "cmb.csv", 3],
        ["generic", "generic.csv", 4],
      ] as const) {
        const parsed = await multipart("/api/v1/portfolio/imports/csv/parse", { broker }, fixture);
        expect(parsed.status, broker).toBe(200);
        expectKeys(parsed.body, ["broker", "record_count", "skipped_count", "error_count", "records", "errors"]);
        expect(parsed.body).toMatchObject({ broker, record_count: records });
        for (const r of parsed.body.records)
          expectKeys(r, [
            "trade_date",
            "symbol",
            "side",
            "quantity",
            "price",
            "fee",
            "tax",
            "trade_uid",
            "dedup_hash",
            "currency",
          ]);
      }
      const huatai = (await multipart("/api/v1/portfolio/imports/csv/parse", { broker: "huatai" }, "huatai.csv")).body;
      expect(huatai).toMatchObject({ skipped_count: 1, error_count: 1 });
      expect(huatai.errors[0]).toContain("line 7");

      const fields = (dryRun: string) => ({ account_id: String(account.id), broker: "huatai", dry_run: dryRun });
      const dry = await multipart("/api/v1/portfolio/imports/csv/commit", fields("true"), "huatai.csv");
      expect(dry.status).toBe(200);
      expectKeys(dry.body, [
        "account_id",
        "record_count",
        "inserted_count",
        "duplicate_count",
        "failed_count",
        "dry_run",
        "errors",
      ]);
      expect(dry.body).toMatchObject({
        account_id: account.id,
        record_count: 4,
        inserted_count: 4,
        duplicate_count: 0,
        failed_count: 1,
        dry_run: true,
      });
      expect(
        (await call("GET", `/api/v1/portfolio/trades?account_id=${account.id}&page=1&page_size=20`)).body.total,
      ).toBe(0);
      const done = await multipart("/api/v1/portfolio/imports/csv/commit", fields("false"), "huatai.csv");
      expect(done.body).toMatchObject({ inserted_count: 4, duplicate_count: 0, failed_count: 1, dry_run: false });
      expect(
        (await call("GET", `/api/v1/portfolio/trades?account_id=${account.id}&page=1&page_size=20`)).body.total,
      ).toBe(4);
      const again = await multipart("/api/v1/portfolio/imports/csv/commit", fields("false"), "huatai.csv");
      expect(again.body).toMatchObject({ inserted_count: 0, duplicate_count: 4 });

      const unknown = await multipart("/api/v1/portfolio/imports/csv/parse", { broker: "nobody" }, "generic.csv");
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toBe("validation_error");
    });
  });
}

suite("auth off");
suite("auth on");
