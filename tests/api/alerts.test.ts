import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZAlertEvaluation, ZAlertRule, ZAlertRuleList, ZAlertTriggerListResponse } from "@/lib/alerts/schemas";
import { startReceiver, type Receiver } from "@/lib/notify/testing/receiver";
import { startTestServer, type TestServer } from "../setup/api-server";

// Issue 9 item 2 over HTTP: rules, the evaluator (run on demand so the test controls when it runs), the
// trigger history and its paging bounds, and the notification a firing sends to a generic webhook.

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

describe("alerts API (issue 9 item 2)", () => {
  it("a crossing fires once, is stored as sent, and the webhook receives the message; cooldown suppresses the next", async () => {
    const price = await quotePrice("600519");
    const rule = ZAlertRule.parse(
      await json(await call("POST", "/rules", { alert_type: "price_above", target: "600519.SH", parameters: { price: price - 10 }, cooldown_minutes: 60 }), 201),
    );
    expect(rule).toMatchObject({ target: "600519", enabled: true, armed: true });

    const dry = await json(await call("POST", `/rules/${rule.id}/test`), 200);
    expect(dry).toMatchObject({ rule_id: rule.id, met: true, evaluated: true });
    expect(receiver.requests).toHaveLength(0);

    const first = ZAlertEvaluation.parse(await json(await call("POST", "/evaluate"), 200));
    expect(first.triggers).toHaveLength(1);
    expect(first.triggers[0]).toMatchObject({ rule_id: rule.id, status: "sent", observed_value: price, threshold: price - 10 });
    expect(receiver.requests).toHaveLength(1);
    const hook = receiver.requests[0]!.json as { kind: string; title: string; content: string; related_kind: string; related_id: string };
    expect(hook).toMatchObject({ kind: "alert", related_kind: "alert", related_id: String(first.triggers[0]!.id) });
    expect(hook.title).toContain("600519");
    expect(hook.content).toContain(String(price));

    const again = ZAlertEvaluation.parse(await json(await call("POST", "/evaluate"), 200));
    expect(again.triggers).toHaveLength(0);
    expect(receiver.requests).toHaveLength(1);

    // A new threshold re-arms the rule; inside the 60-minute cooldown the firing is stored as suppressed.
    await json(await call("PATCH", `/rules/${rule.id}`, { parameters: { price: price - 5 } }), 200);
    const third = ZAlertEvaluation.parse(await json(await call("POST", "/evaluate"), 200));
    expect(third.triggers[0]!.status).toBe("suppressed");
    expect(receiver.requests).toHaveLength(1);
  });

  it("trigger listing filters and pages; page_size 1–100 and page ≥ 1 are enforced", async () => {
    const all = ZAlertTriggerListResponse.parse(await json(await call("GET", "/triggers"), 200));
    expect(all).toMatchObject({ page: 1, page_size: 20 });
    expect(all.total).toBeGreaterThanOrEqual(2);
    const page = ZAlertTriggerListResponse.parse(await json(await call("GET", "/triggers?page_size=1&page=2"), 200));
    expect(page.items).toHaveLength(1);
    expect(page.items[0]!.id).toBe(all.items[1]!.id);
    const suppressed = ZAlertTriggerListResponse.parse(await json(await call("GET", "/triggers?status=suppressed&target=sh600519"), 200));
    expect(suppressed.items.every((i) => i.status === "suppressed" && i.target === "600519")).toBe(true);
    await json(await call("GET", "/triggers?page_size=0"), 422);
    await json(await call("GET", "/triggers?page_size=101"), 422);
    await json(await call("GET", "/triggers?page=0"), 422);
    await json(await call("GET", "/triggers?rule_id=abc"), 422);
  });

  it("spec 4.6: status and target are plain strings: any value is a filter that matches what it names (issue 18 §2)", async () => {
    for (const query of ["status=triggered", "status=bogus", "target=" + "x".repeat(80), "target=", "status="]) {
      const list = ZAlertTriggerListResponse.parse(await json(await call("GET", `/triggers?${query}`), 200));
      expect(list.items).toHaveLength(0);
    }
  });

  it("rules: a parameter the type does not read or an unknown target is 400; delete keeps the history", async () => {
    expect(await json(await call("POST", "/rules", { alert_type: "price_above", target: "600519", parameters: { ratio: 2 } }), 400)).toMatchObject({ error: "validation_error" });
    expect(await json(await call("POST", "/rules", { alert_type: "price_above", target: "ZZZ999X", parameters: { price: 1 } }), 400)).toMatchObject({ error: "validation_error" });
    await json(await call("POST", "/rules", { alert_type: "sideways", target: "600519", parameters: { price: 1 } }), 422);
    const list = ZAlertRuleList.parse(await json(await call("GET", "/rules"), 200));
    const id = list.items[0]!.id;
    expect(await json(await call("DELETE", `/rules/${id}`), 200)).toEqual({ deleted: 1 });
    await json(await call("GET", `/rules/${id}`), 404);
    const triggers = ZAlertTriggerListResponse.parse(await json(await call("GET", "/triggers"), 200));
    expect(triggers.items.length).toBeGreaterThan(0);
    expect(triggers.items.every((t) => t.rule_id === null)).toBe(true);
  });
});
