import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZAnalysisResultResponse } from "@/lib/analysis/schemas";
import { ZDeliveryListResponse, ZNotifyChannelList, ZNotifyTestResult } from "@/lib/notify/schemas";
import { startReceiver, type Receiver, type ReceivedRequest } from "@/tests/kits/notify-receiver";
import { ZMarketReviewAccepted, ZTaskAccepted } from "@/lib/tasks/schemas";
import { startTestServer, type TestServer } from "../setup/api-server";
import { openServerDatabase } from "../setup/server-database";
import { settledServerLog } from "../setup/server-log";

// Notifications over HTTP: analyses with notify=true and market reviews with send_notification=true reach the
// configured channels (a local receiver), a failing channel never changes the analysis, and no secret leaks.

const BEARER = "api-bearer-token-0123";
const SECRET_PATH = "/hook/path-secret-4567";
let server: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  server = await startTestServer({
    MARKET_DATA_SOURCES: "sample",
    CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}${SECRET_PATH}`,
    // The receiver listens on 127.0.0.1, which the outbound policy refuses by default.
    OUTBOUND_ALLOW_PRIVATE: "true",
    CUSTOM_WEBHOOK_BEARER_TOKEN: BEARER,
    WECHAT_WEBHOOK_URL: `${receiver.baseUrl}/wecom?key=wecom-key-89`,
    PUBLIC_BASE_URL: "https://dsa.test",
    NOTIFICATION_RETRY_BASE_DELAY_MS: "20",
    TASK_MARKET_RATE_PER_MINUTE: "6000",
  });
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

function post(route: string, body: unknown) {
  return fetch(`${server.baseUrl}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function waitFor<T>(find: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error("nothing arrived in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

function customFor(relatedId: string): ReceivedRequest | undefined {
  return receiver.requests.find(
    (r) => r.url === SECRET_PATH && (r.json as { related_id?: string }).related_id === relatedId,
  );
}

async function deliveries(relatedId: string) {
  const database = await openServerDatabase(server);
  try {
    return await database.all(
      "SELECT channel, status, attempts, error, related_kind FROM notification_delivery WHERE related_id = ? ORDER BY channel",
      relatedId,
    );
  } finally {
    await database.close();
  }
}

describe("notifications after analyses", () => {
  it("sync analyze with notify=true: every channel gets the summary with the report link; the delivery is recorded", async () => {
    const res = await post("/api/v1/analysis/analyze", { stock_code: "600519", notify: true, report_language: "en" });
    expect(res.status).toBe(200);
    const body = ZAnalysisResultResponse.parse(await res.json());
    const link = `https://dsa.test/history/${body.report.meta.id}`;

    const custom = await waitFor(() => customFor(body.query_id));
    expect(custom.headers.authorization).toBe(`Bearer ${BEARER}`);
    expect(custom.json).toMatchObject({ kind: "report", link, related_kind: "analysis", related_id: body.query_id });
    const content = (custom.json as { content: string; title: string }).content;
    expect((custom.json as { title: string }).title).toContain("600519");
    expect(content).toContain(`**Price**: `);
    expect(content).toContain(`[Open the full report](${link})`);

    const wecom = await waitFor(() =>
      receiver.requests.find((r) => r.url.startsWith("/wecom") && JSON.stringify(r.json).includes(link)),
    );
    expect(wecom.json).toMatchObject({ msgtype: "markdown" });
    await waitFor(async () => ((await deliveries(body.query_id)).length === 2 ? true : undefined));
    expect(await deliveries(body.query_id)).toEqual([
      { channel: "custom", status: "sent", attempts: 1, error: null, related_kind: "analysis" },
      { channel: "wechat", status: "sent", attempts: 1, error: null, related_kind: "analysis" },
    ]);
  });

  it("notify=false sends nothing", async () => {
    const before = receiver.requests.length;
    const body = ZAnalysisResultResponse.parse(
      await (await post("/api/v1/analysis/analyze", { stock_code: "000001", notify: false })).json(),
    );
    await new Promise((r) => setTimeout(r, 800));
    expect(receiver.requests.length).toBe(before);
    expect(await deliveries(body.query_id)).toEqual([]);
  });

  it("a failing channel never changes the analysis: 200, and the failure is recorded without secrets", async () => {
    receiver.answer = (req) =>
      req.url.startsWith("/wecom")
        ? { status: 502, body: `bad gateway for ${req.url}` }
        : { status: 200, body: { ok: true } };
    try {
      const res = await post("/api/v1/analysis/analyze", { stock_code: "AAPL", notify: true });
      expect(res.status).toBe(200);
      const body = ZAnalysisResultResponse.parse(await res.json());
      await waitFor(async () => ((await deliveries(body.query_id)).length === 2 ? true : undefined));
      const [custom, wecom] = (await deliveries(body.query_id)) as {
        channel: string;
        status: string;
        attempts: number;
        error: string | null;
      }[];
      expect(custom).toMatchObject({ channel: "custom", status: "sent" });
      expect(wecom).toMatchObject({ channel: "wechat", status: "failed", attempts: 3 });
      expect(wecom!.error).toContain("HTTP 502");
      expect(wecom!.error).not.toContain("wecom-key-89");
    } finally {
      receiver.answer = () => ({ status: 200, body: { ok: true } });
    }
  });

  it("async analyze with notify=true and a market review with send_notification=true are sent when their tasks finish", async () => {
    const task = ZTaskAccepted.parse(
      await (await post("/api/v1/analysis/analyze", { stock_code: "hk00700", async_mode: true, notify: true })).json(),
    );
    const fromTask = await waitFor(() => customFor(task.task_id));
    expect(fromTask.json).toMatchObject({ kind: "report", related_kind: "analysis", related_id: task.task_id });
    expect((fromTask.json as { link: string }).link).toMatch(/^https:\/\/dsa\.test\/history\/\d+$/);

    const review = ZMarketReviewAccepted.parse(
      await (await post("/api/v1/analysis/market-review", { region: "cn", send_notification: true })).json(),
    );
    const fromReview = await waitFor(() => customFor(review.task_id));
    expect(fromReview.json).toMatchObject({
      kind: "report",
      related_kind: "market_review",
      related_id: review.task_id,
    });
    expect((fromReview.json as { content: string }).content).toMatch(/\S/);

    const log = await settledServerLog(server);
    for (const secret of [BEARER, "path-secret-4567", "wecom-key-89"]) expect(log).not.toContain(secret);
  });
});

describe("notification channels, test message and delivery log", () => {
  it("lists the configured channels by name only", async () => {
    const res = await fetch(`${server.baseUrl}/api/v1/notifications/channels`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(ZNotifyChannelList.parse(JSON.parse(text))).toEqual({
      channels: [
        { id: "custom", channel: "custom" },
        { id: "wechat", channel: "wechat" },
      ],
    });
    for (const secret of [BEARER, "path-secret-4567", "wecom-key-89"]) expect(text).not.toContain(secret);
  });

  it("sends a test message to every channel, or to the ones named; each outcome is logged with kind test", async () => {
    const before = receiver.requests.length;
    const all = ZNotifyTestResult.parse(await (await post("/api/v1/notifications/test", {})).json());
    expect(all.status).toBe("sent");
    expect(all.deliveries.map((d) => [d.channel, d.status])).toEqual([
      ["custom", "sent"],
      ["wechat", "sent"],
    ]);
    expect(
      receiver.requests
        .slice(before)
        .map((r) => r.url)
        .sort(),
    ).toEqual([SECRET_PATH, "/wecom?key=wecom-key-89"].sort());
    const hook = receiver.requests.slice(before).find((r) => r.url === SECRET_PATH)!.json as {
      kind: string;
      title: string;
      link: string;
    };
    expect(hook).toMatchObject({ kind: "test", title: "DSA 测试通知", link: "https://dsa.test/settings" });

    const one = ZNotifyTestResult.parse(
      await (await post("/api/v1/notifications/test", { channels: ["wechat"] })).json(),
    );
    expect(one.deliveries.map((d) => d.channel)).toEqual(["wechat"]);
    const none = ZNotifyTestResult.parse(
      await (await post("/api/v1/notifications/test", { channels: ["telegram"] })).json(),
    );
    expect(none).toEqual({ status: "no_channels", deliveries: [] });
    expect((await post("/api/v1/notifications/test", { channels: ["pager"] })).status).toBe(422);

    const log = ZDeliveryListResponse.parse(
      await (await fetch(`${server.baseUrl}/api/v1/notifications/deliveries?kind=test&page_size=2`)).json(),
    );
    expect(log.total).toBe(3);
    expect(log.page_size).toBe(2);
    // Newest first: the one-channel send, then the two of the first send, which were recorded in whichever order
    // their channels answered.
    expect(log.items[0]).toMatchObject({ channel: "wechat", status: "sent", kind: "test" });
    const second = ZDeliveryListResponse.parse(
      await (await fetch(`${server.baseUrl}/api/v1/notifications/deliveries?kind=test&page_size=2&page=2`)).json(),
    );
    expect(second.items).toHaveLength(1);
    expect([log.items[1]!, second.items[0]!].map((i) => [i.channel, i.status, i.kind]).sort()).toEqual([
      ["custom", "sent", "test"],
      ["wechat", "sent", "test"],
    ]);
    expect(log.items[0]!.id).toBeGreaterThan(Math.max(log.items[1]!.id, second.items[0]!.id));
    const failed = ZDeliveryListResponse.parse(
      await (await fetch(`${server.baseUrl}/api/v1/notifications/deliveries?status=failed&channel=wechat`)).json(),
    );
    expect(
      failed.items.every((i) => i.status === "failed" && i.channel === "wechat" && !i.error!.includes("wecom-key-89")),
    ).toBe(true);
  });

  it("rejects page_size outside 1-100 and unknown statuses with 422", async () => {
    for (const query of ["page_size=0", "page_size=101", "page=0", "status=lost", "kind=other"]) {
      expect((await fetch(`${server.baseUrl}/api/v1/notifications/deliveries?${query}`)).status, query).toBe(422);
    }
  });
});

describe("the test notification and the outbound policy (OUTBOUND_ALLOW_PRIVATE off)", () => {
  let guarded: TestServer;
  let target: Receiver;
  beforeAll(async () => {
    target = await startReceiver();
    // Set through the environment, which the config API's validation does not see: the send refuses it.
    guarded = await startTestServer({
      CUSTOM_WEBHOOK_URLS: `${target.baseUrl}/internal`,
      NOTIFICATION_RETRY_ATTEMPTS: "1",
    });
  });
  afterAll(async () => {
    await guarded?.stop();
    await target?.close();
  });

  it("a channel on this machine is not called; the answer says why and how to allow it", async () => {
    const res = await fetch(`${guarded.baseUrl}/api/v1/notifications/test`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const result = ZNotifyTestResult.parse(await res.json());
    expect(result.deliveries).toEqual([
      expect.objectContaining({
        status: "failed",
        error: expect.stringMatching(/^destination refused: 127\.0\.0\.1 .*OUTBOUND_ALLOW_PRIVATE=true/),
      }),
    ]);
    expect(target.requests).toHaveLength(0);
  });

  it("the config API refuses such a URL with the same reason", async () => {
    const current = (await (await fetch(`${guarded.baseUrl}/api/v1/system/config?include_schema=false`)).json()) as {
      config_version: string;
    };
    const res = await fetch(`${guarded.baseUrl}/api/v1/system/config`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        config_version: current.config_version,
        items: [{ key: "CUSTOM_WEBHOOK_URLS", value: "http://169.254.169.254/latest/meta-data/" }],
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: "validation_failed",
      issues: [expect.objectContaining({ key: "CUSTOM_WEBHOOK_URLS", code: "outbound_refused" })],
    });
  });
});

describe("POST /system/config/notification/test-channel: one channel as the form holds it, unsaved", () => {
  const draftTest = async (body: object) => {
    const res = await post("/api/v1/system/config/notification/test-channel", body);
    return { status: res.status, body: await res.json() };
  };

  it("a draft channel (not saved) is sent through; nothing is stored, neither the settings nor a delivery", async () => {
    const before = receiver.requests.length;
    const { status, body } = await draftTest({
      channel: "telegram",
      items: [
        { key: "TELEGRAM_BOT_TOKEN", value: "123456:draft-bot-token" },
        { key: "TELEGRAM_CHAT_ID", value: "42" },
        { key: "TELEGRAM_API_BASE_URL", value: receiver.baseUrl },
      ],
      title: "Draft check",
      content: "Does the draft reach the chat?",
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, retryable: false, attempts: [{ channel: "telegram", success: true }] });
    expect(body.attempts[0].stage).toBe("send");
    expect(typeof body.latency_ms).toBe("number");
    const sent = receiver.requests.slice(before);
    expect(sent.map((r) => r.url)).toEqual(["/bot123456:draft-bot-token/sendMessage"]);
    expect(sent[0]!.json).toMatchObject({ chat_id: "42" });
    expect((sent[0]!.json as { text: string }).text).toContain("Does the draft reach the chat?");
    const config = await (await fetch(`${server.baseUrl}/api/v1/system/config`)).json();
    const token = config.items.find((i: { key: string }) => i.key === "TELEGRAM_BOT_TOKEN");
    expect(token?.value ?? "").toBe("");
    const database = await openServerDatabase(server);
    try {
      expect(await database.all("SELECT id FROM notification_delivery WHERE channel = 'telegram'")).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it("a saved secret sent as the mask is used where it was saved, never echoed", async () => {
    const before = receiver.requests.length;
    const { body } = await draftTest({ channel: "wechat", items: [{ key: "WECHAT_WEBHOOK_URL", value: "******" }] });
    expect(body).toMatchObject({ success: true, attempts: [{ channel: "wechat", success: true }] });
    expect(receiver.requests.slice(before).map((r) => r.url)).toEqual(["/wecom?key=wecom-key-89"]);
    expect(JSON.stringify(body)).not.toContain("wecom-key-89");
  });

  it("a draft that points a channel elsewhere must type its saved secret again: nothing is sent", async () => {
    const before = receiver.requests.length;
    const { status, body } = await draftTest({
      channel: "custom",
      items: [
        { key: "CUSTOM_WEBHOOK_URLS", value: `${receiver.baseUrl}/elsewhere` },
        { key: "CUSTOM_WEBHOOK_BEARER_TOKEN", value: "******" },
      ],
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: false, error_code: "secret_required", stage: "validate", attempts: [] });
    expect(receiver.requests.length).toBe(before);
  });

  it("a failing destination is success=false with the stage, HTTP status and a reason without secrets", async () => {
    const previous = receiver.answer;
    receiver.answer = () => ({ status: 503, body: { message: "busy" } });
    try {
      const { body } = await draftTest({
        channel: "custom",
        items: [{ key: "CUSTOM_WEBHOOK_URLS", value: `${receiver.baseUrl}/draft-hook-secret-77` }],
        timeout_seconds: 5,
      });
      expect(body).toMatchObject({ success: false, stage: "send", error_code: "http_error", retryable: true });
      expect(body.attempts[0]).toMatchObject({ channel: "custom", success: false, http_status: 503 });
      expect(JSON.stringify(body)).not.toContain("draft-hook-secret-77");
      expect(JSON.stringify(body)).not.toContain(BEARER);
    } finally {
      receiver.answer = previous;
    }
  });

  it("an empty channel, another channel's key and bad fields are refused, each in its own way", async () => {
    expect((await draftTest({ channel: "gotify" })).body).toMatchObject({
      success: false,
      error_code: "channel_not_configured",
    });
    expect(
      (await draftTest({ channel: "telegram", items: [{ key: "SLACK_WEBHOOK_URL", value: "https://x.example" }] }))
        .body,
    ).toMatchObject({ success: false, error_code: "foreign_key" });
    expect((await draftTest({ channel: "pager" })).status).toBe(422);
    expect((await draftTest({ channel: "wechat", title: "x".repeat(81) })).status).toBe(422);
    expect((await draftTest({ channel: "wechat", timeout_seconds: 121 })).status).toBe(422);
  });
});
