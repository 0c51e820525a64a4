import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../setup/api-server";
import { expectKeys, loginCookie, referenceClient, type Call, type Wire } from "./reference-client";

// docs/api.md §12.2: the reference's Alerts page against DSA, on sample data, in both auth modes. Every request is
// the body the client's form sends (keys omitted when undefined, snake_case); every field §12.2 marks as read is
// asserted on the raw answer. Triggers and notification records are produced by running the evaluator once
// (POST /alerts/evaluate, ours: the client only reads them).

const RULE_KEYS = [
  "id",
  "name",
  "target_scope",
  "target",
  "alert_type",
  "parameters",
  "severity",
  "enabled",
  "source",
  "cooldown_policy",
  "notification_policy",
  "last_triggered_at",
  "cooldown_until",
  "cooldown_active",
  "created_at",
  "updated_at",
];
const TEST_KEYS = [
  "rule_id",
  "target_scope",
  "status",
  "triggered",
  "observed_value",
  "message",
  "evaluated_count",
  "triggered_count",
  "degraded_count",
  "skipped_count",
  "target_results",
];
const TARGET_RESULT_KEYS = [
  "target",
  "display_target",
  "status",
  "record_status",
  "triggered",
  "observed_value",
  "threshold",
  "message",
];
const TRIGGER_KEYS = [
  "id",
  "rule_id",
  "target",
  "observed_value",
  "threshold",
  "reason",
  "data_source",
  "data_timestamp",
  "triggered_at",
  "status",
  "diagnostics",
  "market_phase_summary",
  "analysis_context_pack_overview",
];
const NOTIFICATION_KEYS = [
  "id",
  "trigger_id",
  "channel",
  "attempt",
  "success",
  "error_code",
  "retryable",
  "latency_ms",
  "diagnostics",
  "created_at",
];
const PAGE_KEYS = ["items", "total", "page", "page_size"];

/** What the form sends for each type (§12.2.1 table), over the scopes it offers the type with. */
function forms(
  accountId: number,
): { target_scope: string; target: string; alert_type: string; parameters: Record<string, unknown> }[] {
  const symbol = (alert_type: string, parameters: Record<string, unknown>) => ({
    target_scope: "single_symbol",
    target: "600519",
    alert_type,
    parameters,
  });
  return [
    symbol("price_cross", { direction: "above", price: 1 }),
    symbol("price_change_percent", { direction: "down", change_pct: 3 }),
    symbol("volume_spike", { multiplier: 2 }),
    symbol("ma_price_cross", { direction: "above", window: 20 }),
    symbol("rsi_threshold", { direction: "above", period: 12, threshold: 70 }),
    symbol("macd_cross", { direction: "bullish_cross", fast_period: 12, slow_period: 26, signal_period: 9 }),
    symbol("kdj_cross", { direction: "bearish_cross", period: 9, k_period: 3, d_period: 3 }),
    symbol("cci_threshold", { direction: "below", period: 14, threshold: -100 }),
    {
      target_scope: "watchlist",
      target: "default",
      alert_type: "price_cross",
      parameters: { direction: "above", price: 0.01 },
    },
    {
      target_scope: "portfolio_holdings",
      target: "all",
      alert_type: "rsi_threshold",
      parameters: { direction: "below", period: 12, threshold: 30 },
    },
    {
      target_scope: "portfolio_account",
      target: String(accountId),
      alert_type: "portfolio_stop_loss",
      parameters: { mode: "near" },
    },
    {
      target_scope: "portfolio_account",
      target: String(accountId),
      alert_type: "portfolio_concentration",
      parameters: {},
    },
    { target_scope: "portfolio_account", target: "all", alert_type: "portfolio_drawdown", parameters: {} },
    { target_scope: "portfolio_account", target: "all", alert_type: "portfolio_price_stale", parameters: {} },
    {
      target_scope: "market",
      target: "cn",
      alert_type: "market_light_status",
      parameters: { statuses: ["red", "yellow"] },
    },
    { target_scope: "market", target: "us", alert_type: "market_light_score_drop", parameters: { min_drop: 10 } },
  ];
}

function expectRule(rule: Wire): void {
  expectKeys(rule, RULE_KEYS);
  expect(typeof rule.id).toBe("number");
  expect(rule.name.length).toBeGreaterThan(0);
  expect(["info", "warning", "critical"]).toContain(rule.severity);
  expect(typeof rule.enabled).toBe("boolean");
  expect(typeof rule.source).toBe("string");
  expect(typeof rule.cooldown_active).toBe("boolean");
  expect(typeof rule.parameters).toBe("object");
  expect(typeof (rule.updated_at ?? rule.created_at)).toBe("string");
}

function suite(mode: "auth off" | "auth on") {
  describe(`§12.2 alerts with ${mode}`, () => {
    let server: TestServer;
    let call: Call;
    let accountId = 0;
    const created: Wire[] = [];

    beforeAll(async () => {
      server = await startTestServer({
        MARKET_DATA_SOURCES: "sample",
        STOCK_LIST: "600519,000001,AAPL",
        ALERT_EVAL_SECONDS: "3600",
        ...(mode === "auth on" ? { ADMIN_AUTH_ENABLED: "true" } : {}),
      });
      call = referenceClient(server.baseUrl, mode === "auth on" ? await loginCookie(server.baseUrl) : undefined);
      // A held stock for the portfolio scopes (the portfolio page's own requests).
      const account = await call("POST", "/api/v1/portfolio/accounts", {
        name: "Compat",
        broker: "Demo",
        market: "cn",
        base_currency: "CNY",
      });
      expect(account.status, JSON.stringify(account.body)).toBeLessThan(300);
      accountId = account.body.id;
      const trade = await call("POST", "/api/v1/portfolio/trades", {
        account_id: accountId,
        symbol: "600519",
        stock_code: "600519",
        trade_date: "2026-06-01",
        side: "buy",
        quantity: 100,
        price: 1,
        fee: 0,
        tax: 0,
      });
      expect(trade.status, JSON.stringify(trade.body)).toBeLessThan(300);
    }, 60_000);
    afterAll(() => server?.stop());

    if (mode === "auth on") {
      it("without the session every alerts endpoint answers 401 (the client redirects to /login)", async () => {
        const anon = referenceClient(server.baseUrl);
        for (const [method, path] of [
          ["GET", "/api/v1/alerts/rules?page=1&page_size=20"],
          ["POST", "/api/v1/alerts/rules"],
          ["POST", "/api/v1/alerts/rules/1/enable"],
          ["POST", "/api/v1/alerts/rules/1/disable"],
          ["POST", "/api/v1/alerts/rules/1/test"],
          ["DELETE", "/api/v1/alerts/rules/1"],
          ["GET", "/api/v1/alerts/triggers?page=1&page_size=20"],
          ["GET", "/api/v1/alerts/notifications?page=1&page_size=20"],
        ] as const) {
          const res = await anon(
            method,
            path,
            method === "POST" && path.endsWith("rules")
              ? {
                  target_scope: "single_symbol",
                  target: "600519",
                  alert_type: "price_cross",
                  parameters: { direction: "above", price: 1 },
                  severity: "warning",
                  enabled: true,
                }
              : undefined,
          );
          expect(res.status, path).toBe(401);
        }
      });
    }

    it("POST /rules: every type over each scope the form offers it with, as the form sends it", async () => {
      for (const form of forms(accountId)) {
        const res = await call("POST", "/api/v1/alerts/rules", { ...form, severity: "warning", enabled: true });
        expect(res.status, `${form.alert_type} ${form.target_scope}: ${JSON.stringify(res.body)}`).toBe(201);
        expectRule(res.body);
        expect(res.body).toMatchObject({
          target_scope: form.target_scope,
          target: form.target,
          alert_type: form.alert_type,
          enabled: true,
          severity: "warning",
          cooldown_active: false,
          last_triggered_at: null,
        });
        // The parameters the client summarises per type come back under the same keys.
        expect(res.body.parameters).toMatchObject(form.parameters);
        created.push(res.body);
      }
      // A name and a severity as typed; the server default scope is single_symbol; the defaults of the form fill in.
      const named = await call("POST", "/api/v1/alerts/rules", {
        name: "Moutai MACD",
        target: "600519",
        alert_type: "macd_cross",
        parameters: { direction: "bearish_cross" },
        severity: "critical",
        enabled: false,
      });
      expect(named.status).toBe(201);
      expect(named.body).toMatchObject({
        name: "Moutai MACD",
        target_scope: "single_symbol",
        severity: "critical",
        enabled: false,
        parameters: { direction: "bearish_cross", fast_period: 12, slow_period: 26, signal_period: 9 },
      });
      created.push(named.body);
      // cooldown_policy / notification_policy: the server takes them (the client never sends them).
      const policy = await call("POST", "/api/v1/alerts/rules", {
        target_scope: "single_symbol",
        target: "000001",
        alert_type: "volume_spike",
        parameters: { multiplier: 3 },
        severity: "info",
        enabled: true,
        cooldown_policy: { cooldown_seconds: 600 },
        notification_policy: { channels: ["email"] },
      });
      expect(policy.body).toMatchObject({
        cooldown_policy: { cooldown_seconds: 600 },
        notification_policy: { channels: ["email"] },
      });
      created.push(policy.body);
    });

    it("POST /rules errors: 400 {error, message} for the create form", async () => {
      const cases = [
        [
          { target_scope: "single_symbol", target: "600519", alert_type: "boll_break", parameters: {} },
          "unsupported_alert_type",
        ],
        [
          {
            target_scope: "single_symbol",
            target: "600519",
            alert_type: "macd_cross",
            parameters: { direction: "bullish_cross", fast_period: 30, slow_period: 26, signal_period: 9 },
          },
          "validation_error",
        ],
        [
          {
            target_scope: "single_symbol",
            target: "600519",
            alert_type: "rsi_threshold",
            parameters: { direction: "above", period: 12, threshold: 120 },
          },
          "validation_error",
        ],
        [
          { target_scope: "market", target: "cn", alert_type: "market_light_status", parameters: { statuses: [] } },
          "validation_error",
        ],
        [
          { target_scope: "watchlist", target: "default", alert_type: "portfolio_drawdown", parameters: {} },
          "validation_error",
        ],
        [
          {
            target_scope: "single_symbol",
            target: "NOT-A-CODE-123",
            alert_type: "price_cross",
            parameters: { direction: "above", price: 1 },
          },
          "validation_error",
        ],
      ] as const;
      for (const [body, code] of cases) {
        const res = await call("POST", "/api/v1/alerts/rules", { ...body, severity: "warning", enabled: true });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error).toBe(code);
        expect(typeof res.body.message).toBe("string");
      }
    });

    it("GET /rules: {items, total, page, page_size} with the client's filters; a page past the end is empty", async () => {
      const all = await call("GET", "/api/v1/alerts/rules?page=1&page_size=20");
      expect(all.status).toBe(200);
      expectKeys(all.body, PAGE_KEYS);
      expect(all.body).toMatchObject({ total: created.length, page: 1, page_size: 20 });
      for (const rule of all.body.items) expectRule(rule);
      const filters: [string, (r: Wire) => boolean][] = [
        ["enabled=false", (r) => r.enabled === false],
        ["enabled=true", (r) => r.enabled === true],
        ["alert_type=price_cross", (r) => r.alert_type === "price_cross"],
        ["target_scope=portfolio_account", (r) => r.target_scope === "portfolio_account"],
        ["target_scope=market&target=cn", (r) => r.target_scope === "market" && r.target === "cn"],
        ["target=600519", (r) => r.target === "600519"],
        ["source=api", () => true],
      ];
      for (const [query, expected] of filters) {
        const res = await call("GET", `/api/v1/alerts/rules?${query}&page=1&page_size=20`);
        expect(res.status, query).toBe(200);
        expect(res.body.items.length, query).toBe(created.filter(expected).length);
        expect(res.body.total, query).toBe(res.body.items.length);
      }
      const past = await call("GET", "/api/v1/alerts/rules?page=9&page_size=20");
      expect(past.body).toMatchObject({ items: [], total: created.length, page: 9 });
    });

    it("POST /rules/{id}/disable and /enable answer the rule; an unknown id is 404 not_found", async () => {
      const id = created[0].id;
      const off = await call("POST", `/api/v1/alerts/rules/${id}/disable`);
      expect(off.status).toBe(200);
      expectRule(off.body);
      expect(off.body.enabled).toBe(false);
      const on = await call("POST", `/api/v1/alerts/rules/${id}/enable`);
      expect(on.body.enabled).toBe(true);
      for (const action of ["enable", "disable", "test"]) {
        const missing = await call("POST", `/api/v1/alerts/rules/999999/${action}`);
        expect(missing.status).toBe(404);
        expect(missing.body.error).toBe("not_found");
      }
    });

    it("POST /rules/{id}/test: the outcome per target, for one stock and for the watchlist", async () => {
      const single = await call("POST", `/api/v1/alerts/rules/${created[0].id}/test`);
      expect(single.status).toBe(200);
      expectKeys(single.body, TEST_KEYS);
      expect(single.body).toMatchObject({
        rule_id: created[0].id,
        target_scope: "single_symbol",
        status: "triggered",
        triggered: true,
        evaluated_count: 1,
        triggered_count: 1,
      });
      expect(typeof single.body.observed_value).toBe("number");
      expect(typeof single.body.message).toBe("string");
      expectKeys(single.body.target_results[0], TARGET_RESULT_KEYS);
      expect(single.body.target_results[0]).toMatchObject({
        target: "600519",
        status: "triggered",
        record_status: "triggered",
        triggered: true,
        threshold: 1,
      });

      const watchlist = created.find((r) => r.target_scope === "watchlist");
      const many = await call("POST", `/api/v1/alerts/rules/${watchlist.id}/test`);
      expect(many.body).toMatchObject({
        target_scope: "watchlist",
        status: "triggered",
        evaluated_count: 3,
        triggered_count: 3,
        skipped_count: 0,
        degraded_count: 0,
      });
      expect(many.body.target_results.map((r: Wire) => r.target)).toEqual(["600519", "000001", "AAPL"]);
      for (const r of many.body.target_results) {
        expectKeys(r, TARGET_RESULT_KEYS);
        expect(typeof r.display_target).toBe("string");
      }

      // Every other rule answers a status the client knows, with its counts.
      for (const rule of created) {
        const res = await call("POST", `/api/v1/alerts/rules/${rule.id}/test`);
        expect(res.status).toBe(200);
        expect(["triggered", "not_triggered", "evaluation_error"], `${rule.alert_type}`).toContain(res.body.status);
        for (const r of res.body.target_results)
          expect(["triggered", "not_triggered", "skipped", "evaluation_error"]).toContain(r.status);
      }
      // One held stock is the whole account: the concentration rule fires.
      const concentration = created.find((r) => r.alert_type === "portfolio_concentration");
      expect((await call("POST", `/api/v1/alerts/rules/${concentration.id}/test`)).body).toMatchObject({
        status: "triggered",
        observed_value: 100,
      });
    });

    it("GET /triggers: the §12.2.4 item fields, statuses and filters; GET /notifications: the §12.2.5 records", async () => {
      const run = await call("POST", "/api/v1/alerts/evaluate");
      expect(run.status).toBe(200);
      const list = await call("GET", "/api/v1/alerts/triggers?page=1&page_size=20");
      expect(list.status).toBe(200);
      expectKeys(list.body, PAGE_KEYS);
      expect(list.body.total).toBeGreaterThanOrEqual(4);
      for (const item of list.body.items) {
        expectKeys(item, TRIGGER_KEYS);
        expect(["triggered", "skipped", "degraded", "failed"]).toContain(item.status);
        expect(typeof item.target).toBe("string");
        expect(typeof (item.data_timestamp ?? item.triggered_at)).toBe("string");
        expect(typeof (item.diagnostics === null ? item.reason : (item.reason ?? ""))).toBe("string");
      }
      const fired = list.body.items.find((i: Wire) => i.rule_id === created[0].id);
      expect(fired).toMatchObject({ target: "600519", status: "triggered", threshold: 1, data_source: "sample" });
      expect(typeof fired.observed_value).toBe("number");
      expect(fired.market_phase_summary).toMatchObject({ market: "cn" });
      expect(fired.analysis_context_pack_overview.data_quality).toMatchObject({
        level: expect.stringMatching(/^(complete|partial)$/),
        limitations: expect.any(Array),
      });

      const byRule = await call("GET", `/api/v1/alerts/triggers?rule_id=${created[0].id}&page=1&page_size=20`);
      expect(byRule.body.items.map((i: Wire) => i.rule_id)).toEqual([created[0].id]);
      const byTarget = await call("GET", "/api/v1/alerts/triggers?target=AAPL&status=triggered&page=1&page_size=20");
      expect(byTarget.body.items.length).toBeGreaterThan(0);
      expect(byTarget.body.items.every((i: Wire) => i.target === "AAPL" && i.status === "triggered")).toBe(true);

      const notes = await call("GET", "/api/v1/alerts/notifications?page=1&page_size=20");
      expect(notes.status).toBe(200);
      expectKeys(notes.body, PAGE_KEYS);
      expect(notes.body.total).toBeGreaterThan(0);
      for (const item of notes.body.items) {
        expectKeys(item, NOTIFICATION_KEYS);
        expect(typeof item.channel).toBe("string");
        expect(typeof item.attempt).toBe("number");
        expect(typeof item.success).toBe("boolean");
        expect(typeof item.retryable).toBe("boolean");
      }
      // No channel is configured on this install: each firing's record says so.
      const mine = notes.body.items.find((n: Wire) => n.trigger_id === fired.id);
      expect(mine).toMatchObject({
        success: false,
        error_code: "no_channel",
        channel: "none",
        attempt: 0,
        retryable: false,
      });
      const filtered = await call(
        "GET",
        `/api/v1/alerts/notifications?trigger_id=${fired.id}&channel=none&success=false&page=1&page_size=20`,
      );
      expect(filtered.body.items.map((n: Wire) => n.id)).toEqual([mine.id]);
      expect((await call("GET", "/api/v1/alerts/notifications?success=true&page=1&page_size=20")).body.items).toEqual(
        [],
      );

      // The rule read back after a firing: the cooldown the list renders.
      const rule = (await call("GET", `/api/v1/alerts/rules?target=600519&alert_type=price_cross&page=1&page_size=20`))
        .body.items[0];
      expect(rule).toMatchObject({ cooldown_active: true });
      expect(typeof rule.cooldown_until).toBe("string");
      expect(typeof rule.last_triggered_at).toBe("string");
    });

    it("DELETE /rules/{id} answers {deleted}; the rule is gone, its triggers stay", async () => {
      const id = created[0].id;
      const res = await call("DELETE", `/api/v1/alerts/rules/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: 1 });
      expect((await call("POST", `/api/v1/alerts/rules/${id}/enable`)).status).toBe(404);
      expect((await call("DELETE", `/api/v1/alerts/rules/${id}`)).body.error).toBe("not_found");
      const rules = await call("GET", "/api/v1/alerts/rules?page=1&page_size=20");
      expect(rules.body.total).toBe(created.length - 1);
    });
  });
}

suite("auth off");
suite("auth on");
