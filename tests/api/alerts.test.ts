import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ZAlertEvaluation,
  ZAlertNotificationList,
  ZAlertRule,
  ZAlertRuleList,
  ZAlertTestResult,
  ZAlertTriggerListResponse,
} from "@/lib/alerts/schemas";
import { startReceiver, type Receiver } from "@/tests/kits/notify-receiver";
import { startTestServer, type TestServer } from "../setup/api-server";

// Alerts over HTTP, in the shapes of docs/api.md §12.2: rules, the evaluator (run on demand so the test
// controls when it runs), the trigger history and its paging bounds, the notification a firing sends to a generic
// webhook, and the notification records of the triggers.

let server: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({
    MARKET_DATA_SOURCES: "sample",
    CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/hook`,
    // The receiver listens on 127.0.0.1, which the outbound policy refuses by default.
    OUTBOUND_ALLOW_PRIVATE: "true",
    NOTIFICATION_RETRY_BASE_DELAY_MS: "10",
    ALERT_EVAL_SECONDS: "3600",
  });
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

function call(method: string, path: string, body?: unknown) {
  return fetch(`${server.baseUrl}/api/v1/alerts${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function json(res: Response, status: number): Promise<unknown> {
  expect(res.status, await res.clone().text()).toBe(status);
  return res.json();
}

async function quotePrice(code: string): Promise<number> {
  const res = await fetch(`${server.baseUrl}/api/v1/analysis/analyze`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ stock_code: code, report_type: "brief", notify: false }),
  });
  return ((await res.json()) as { report: { meta: { current_price: number } } }).report.meta.current_price;
}

describe("alerts API (docs/api.md §12.2)", () => {
  it("a crossing fires once, is recorded as triggered and sent, and the webhook receives the message; the cooldown holds the next", async () => {
    const price = await quotePrice("600519");
    const rule = ZAlertRule.parse(
      await json(
        await call("POST", "/rules", {
          alert_type: "price_cross",
          target: "600519.SH",
          parameters: { direction: "above", price: price - 10 },
          cooldown_policy: { cooldown_seconds: 3600 },
        }),
        201,
      ),
    );
    expect(rule).toMatchObject({
      target: "600519",
      target_scope: "single_symbol",
      enabled: true,
      source: "api",
      targets: [],
    });

    const dry = ZAlertTestResult.parse(await json(await call("POST", `/rules/${rule.id}/test`), 200));
    expect(dry).toMatchObject({
      rule_id: rule.id,
      status: "triggered",
      triggered: true,
      observed_value: price,
      evaluated_count: 1,
    });
    expect(receiver.requests).toHaveLength(0);

    const first = ZAlertEvaluation.parse(await json(await call("POST", "/evaluate"), 200));
    expect(first.triggers).toHaveLength(1);
    expect(first.triggers[0]).toMatchObject({
      rule_id: rule.id,
      status: "triggered",
      observed_value: price,
      threshold: price - 10,
      diagnostics: { delivery_status: "sent" },
    });
    expect(receiver.requests).toHaveLength(1);
    const hook = receiver.requests[0]!.json as {
      kind: string;
      title: string;
      content: string;
      related_kind: string;
      related_id: string;
    };
    expect(hook).toMatchObject({ kind: "alert", related_kind: "alert", related_id: String(first.triggers[0]!.id) });
    expect(hook.title).toContain("600519");
    expect(hook.content).toContain(String(price));

    const again = ZAlertEvaluation.parse(await json(await call("POST", "/evaluate"), 200));
    expect(again.triggers).toHaveLength(0);
    expect(receiver.requests).toHaveLength(1);

    // New parameters re-arm the rule; inside the one-hour cooldown the firing is recorded but not sent.
    const patched = ZAlertRule.parse(
      await json(
        await call("PATCH", `/rules/${rule.id}`, { parameters: { direction: "above", price: price - 5 } }),
        200,
      ),
    );
    expect(patched.targets[0]).toMatchObject({ target: "600519", armed: true });
    expect(patched).toMatchObject({ cooldown_active: true });
    const third = ZAlertEvaluation.parse(await json(await call("POST", "/evaluate"), 200));
    expect(third.triggers[0]).toMatchObject({ status: "triggered", diagnostics: { delivery_status: "suppressed" } });
    expect(receiver.requests).toHaveLength(1);

    const notes = ZAlertNotificationList.parse(await json(await call("GET", "/notifications"), 200));
    expect(notes.items.map((n) => [n.trigger_id, n.channel, n.success, n.error_code])).toEqual([
      [third.triggers[0]!.id, "none", false, "cooldown_active"],
      [first.triggers[0]!.id, "custom", true, null],
    ]);
  });

  it("trigger listing filters and pages; page_size 1–100 and page ≥ 1 are enforced", async () => {
    const all = ZAlertTriggerListResponse.parse(await json(await call("GET", "/triggers"), 200));
    expect(all).toMatchObject({ page: 1, page_size: 20 });
    expect(all.total).toBeGreaterThanOrEqual(2);
    const page = ZAlertTriggerListResponse.parse(await json(await call("GET", "/triggers?page_size=1&page=2"), 200));
    expect(page.items).toHaveLength(1);
    expect(page.items[0]!.id).toBe(all.items[1]!.id);
    const triggered = ZAlertTriggerListResponse.parse(
      await json(await call("GET", "/triggers?status=triggered&target=sh600519"), 200),
    );
    expect(triggered.items.length).toBe(2);
    expect(triggered.items.every((i) => i.status === "triggered" && i.target === "600519")).toBe(true);
    await json(await call("GET", "/triggers?page_size=0"), 422);
    await json(await call("GET", "/triggers?page_size=101"), 422);
    await json(await call("GET", "/triggers?page=0"), 422);
    await json(await call("GET", "/triggers?rule_id=abc"), 422);
    await json(await call("GET", "/notifications?trigger_id=abc"), 422);
    await json(await call("GET", "/notifications?success=maybe"), 422);
  });

  it("spec 4.6: status and target are plain strings: any value is a filter that matches what it names", async () => {
    for (const query of ["status=sent", "status=bogus", "target=" + "x".repeat(80), "target=", "status="]) {
      const list = ZAlertTriggerListResponse.parse(await json(await call("GET", `/triggers?${query}`), 200));
      expect(list.items).toHaveLength(0);
    }
  });

  it("rules: a parameter the type does not read, a scope it is not offered with or an unknown target is 400; an unknown type is 400 unsupported_alert_type", async () => {
    expect(
      await json(
        await call("POST", "/rules", {
          alert_type: "price_cross",
          target: "600519",
          parameters: { direction: "above", ratio: 2 },
        }),
        400,
      ),
    ).toMatchObject({ error: "validation_error" });
    expect(
      await json(
        await call("POST", "/rules", {
          alert_type: "price_cross",
          target: "ZZZ999X",
          parameters: { direction: "above", price: 1 },
        }),
        400,
      ),
    ).toMatchObject({ error: "validation_error" });
    expect(
      await json(
        await call("POST", "/rules", {
          alert_type: "portfolio_drawdown",
          target_scope: "single_symbol",
          target: "600519",
          parameters: {},
        }),
        400,
      ),
    ).toMatchObject({ error: "validation_error" });
    expect(
      await json(
        await call("POST", "/rules", {
          alert_type: "market_light_status",
          target_scope: "market",
          target: "jp",
          parameters: {},
        }),
        400,
      ),
    ).toMatchObject({ error: "validation_error" });
    expect(
      await json(
        await call("POST", "/rules", {
          alert_type: "portfolio_drawdown",
          target_scope: "portfolio_account",
          target: "999",
          parameters: {},
        }),
        400,
      ),
    ).toMatchObject({ error: "validation_error" });
    expect(
      await json(await call("POST", "/rules", { alert_type: "sideways", target: "600519", parameters: {} }), 400),
    ).toMatchObject({ error: "unsupported_alert_type" });
    await json(
      await call("POST", "/rules", {
        alert_type: "price_cross",
        target_scope: "galaxy",
        target: "600519",
        parameters: {},
      }),
      422,
    );
  });

  it("list filters and paging; enable, disable; delete keeps the history", async () => {
    await json(
      await call("POST", "/rules", {
        alert_type: "market_light_status",
        target_scope: "market",
        target: "us",
        parameters: { statuses: ["red"] },
        enabled: false,
      }),
      201,
    );
    const all = ZAlertRuleList.parse(await json(await call("GET", "/rules"), 200));
    expect(all).toMatchObject({ total: 2, page: 1, page_size: 20 });
    const off = ZAlertRuleList.parse(await json(await call("GET", "/rules?enabled=false"), 200));
    expect(off.items.map((r) => r.alert_type)).toEqual(["market_light_status"]);
    expect(
      ZAlertRuleList.parse(await json(await call("GET", "/rules?target_scope=market&target=us&source=api"), 200)).total,
    ).toBe(1);
    expect(
      ZAlertRuleList.parse(await json(await call("GET", "/rules?alert_type=price_cross&target=sh600519"), 200)).total,
    ).toBe(1);
    expect(
      ZAlertRuleList.parse(await json(await call("GET", "/rules?page=2&page_size=1"), 200)).items.map(
        (r) => r.alert_type,
      ),
    ).toEqual(["market_light_status"]);
    expect(ZAlertRuleList.parse(await json(await call("GET", "/rules?page=3&page_size=1"), 200)).items).toEqual([]);
    await json(await call("GET", "/rules?page_size=101"), 422);

    const id = all.items[0]!.id;
    expect(ZAlertRule.parse(await json(await call("POST", `/rules/${id}/disable`), 200)).enabled).toBe(false);
    expect(ZAlertRule.parse(await json(await call("POST", `/rules/${id}/enable`), 200)).enabled).toBe(true);
    expect(await json(await call("POST", "/rules/99999/enable"), 404)).toMatchObject({ error: "not_found" });
    expect(await json(await call("DELETE", `/rules/${id}`), 200)).toEqual({ deleted: 1 });
    await json(await call("GET", `/rules/${id}`), 404);
    const triggers = ZAlertTriggerListResponse.parse(await json(await call("GET", "/triggers"), 200));
    expect(triggers.items.length).toBeGreaterThan(0);
    expect(triggers.items.every((t) => t.rule_id === null)).toBe(true);
  });
});
