import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZAlertEvaluation, ZAlertRule } from "@/lib/alerts/schemas";
import { ZPushSubscription, ZPushSubscriptionList, ZVapidKey } from "@/lib/push/schemas";
import { startReceiver, type Receiver } from "@/tests/kits/notify-receiver";
import { browserKeys, decryptPush, verifyVapid } from "@/tests/kits/push-endpoint";
import { startTestServer, type TestServer } from "../setup/api-server";
import { readLiveConfig } from "../setup/server-database";

// Both databases: the key pair is kept in the env file (SQLite) or in the config document's rows (PostgreSQL).
// Web Push as a notification channel: a browser's key pair subscribes, an alert fires, and the local push endpoint
// decrypts what arrives (RFC 8291 aes128gcm) and checks its VAPID JWT (RFC 8292); the key pair is made once and
// kept with the settings; a push service's 410 removes the subscription.

let server: TestServer;
let pushService: Receiver;

beforeAll(async () => {
  pushService = await startReceiver();
  pushService.answer = () => ({ status: 201, body: "" });
  server = await startTestServer({
    MARKET_DATA_SOURCES: "sample",
    OUTBOUND_ALLOW_PRIVATE: "true",
    PUBLIC_BASE_URL: "https://dsa.example.com",
    NOTIFICATION_RETRY_BASE_DELAY_MS: "20",
  });
});
afterAll(async () => {
  await server?.stop();
  await pushService?.close();
});

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe("Web Push", () => {
  it("makes one VAPID key pair and keeps it with the settings", async () => {
    const first = ZVapidKey.parse(await (await call("POST", "/api/v1/push/vapid-key")).json());
    expect(Buffer.from(first.public_key, "base64url")).toHaveLength(65);
    const again = ZVapidKey.parse(await (await call("POST", "/api/v1/push/vapid-key")).json());
    expect(again.public_key).toBe(first.public_key);
    const config = await readLiveConfig(server);
    expect(config).toContain(`WEB_PUSH_VAPID_PUBLIC_KEY=${first.public_key}`);
    expect(config).toMatch(/WEB_PUSH_VAPID_PRIVATE_KEY=\S{40,}/);
    // The private key is a secret: the config API masks it.
    const privateKey = /WEB_PUSH_VAPID_PRIVATE_KEY=(\S+)/.exec(config)![1]!;
    expect(await (await call("GET", "/api/v1/system/config")).text()).not.toContain(privateKey);
  });

  it("refuses a subscription that is not one", async () => {
    const res = await call("POST", "/api/v1/push/subscriptions", {
      endpoint: "not a url",
      keys: { p256dh: "x", auth: "y" },
    });
    expect(res.status).toBe(422);
  });

  it("delivers an alert to a subscribed browser, encrypted for its keys and signed with the VAPID key", async () => {
    const { public_key } = ZVapidKey.parse(await (await call("POST", "/api/v1/push/vapid-key")).json());
    const browser = browserKeys();
    const created = await call("POST", "/api/v1/push/subscriptions", {
      endpoint: `${pushService.baseUrl}/push/v2/device-token-1`,
      keys: browser.keys,
      label: "Chrome on Android",
    });
    expect(created.status).toBe(201);
    const subscription = ZPushSubscription.parse(await created.json());
    expect(subscription).toMatchObject({ label: "Chrome on Android", service: new URL(pushService.baseUrl).host });
    const listed = ZPushSubscriptionList.parse(await (await call("GET", "/api/v1/push/subscriptions")).json());
    expect(JSON.stringify(listed)).not.toContain("device-token-1");

    // An alert that fires at once: a price above a level under the current price.
    const quote = (await (await call("GET", "/api/v1/stocks/600519/quote")).json()) as { current_price: number };
    const rule = ZAlertRule.parse(
      await (
        await call("POST", "/api/v1/alerts/rules", {
          alert_type: "price_cross",
          target: "600519",
          parameters: { direction: "above", price: quote.current_price - 10 },
        })
      ).json(),
    );
    const evaluation = ZAlertEvaluation.parse(await (await call("POST", "/api/v1/alerts/evaluate")).json());
    expect(evaluation.triggers.map((t) => t.rule_id)).toContain(rule.id);

    const push = pushService.requests.find((r) => r.url === "/push/v2/device-token-1");
    expect(push, "a push reached the endpoint").toBeDefined();
    expect(push!.headers["content-encoding"]).toBe("aes128gcm");
    expect(Number(push!.headers.ttl)).toBeGreaterThan(0);
    const vapid = verifyVapid(String(push!.headers.authorization));
    expect(vapid.publicKey).toBe(public_key);
    expect(vapid.claims.aud).toBe(pushService.baseUrl);
    expect(vapid.claims.sub).toBe("https://dsa.example.com");
    const nowSec = Date.now() / 1000;
    expect(vapid.claims.exp).toBeGreaterThan(nowSec);
    expect(vapid.claims.exp).toBeLessThanOrEqual(nowSec + 24 * 3600 + 60);

    const message = JSON.parse(decryptPush(push!.raw, browser)) as { title: string; body: string; url: string };
    expect(message.title).toContain("600519");
    expect(message.body.length).toBeGreaterThan(0);
    expect(message.url.startsWith("/")).toBe(true);
    // Another browser's keys cannot read it.
    expect(() => decryptPush(push!.raw, browserKeys())).toThrow();

    const after = ZPushSubscriptionList.parse(await (await call("GET", "/api/v1/push/subscriptions")).json());
    expect(after.items.find((s) => s.id === subscription.id)!.last_sent_at).not.toBeNull();
  });

  it("drops a subscription its push service says is gone (410), and a test push then says no browser is left", async () => {
    pushService.answer = () => ({ status: 410, body: "" });
    const res = await call("POST", "/api/v1/notifications/test", { channels: ["webpush"] });
    const result = (await res.json()) as { deliveries: { channel: string; status: string; error: string | null }[] };
    expect(result.deliveries).toEqual([
      expect.objectContaining({ channel: "webpush", status: "failed", error: expect.stringMatching(/unsubscribed/) }),
    ]);
    const left = ZPushSubscriptionList.parse(await (await call("GET", "/api/v1/push/subscriptions")).json());
    expect(left.items).toHaveLength(0);
    expect((await call("DELETE", "/api/v1/push/subscriptions/999")).status).toBe(404);
  });
});
