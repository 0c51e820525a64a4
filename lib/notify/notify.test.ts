import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { setClock } from "@/lib/clock";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { db, disconnectDb } from "@/lib/db/client";
import { freshDatabaseUrl } from "@/tests/kits/db/temp-database";
import { notifyAlertTrigger } from "./index";
import { closeRedisConnections, RedisConnection, redisConnection } from "@/lib/redis/connection";
import { dropTestNamespace, REDIS_TEST_URL, useTestNamespace } from "@/tests/kits/redis-test";
import { contentKey, notify, notifyInBackground, settleNotifications } from "./notify";
import { takeSendLock } from "./send-lock";
import { startReceiver, type Receiver } from "@/tests/kits/notify-receiver";
import type { NotificationMessage } from "./types";

// notify(): parallel channels, retries with exponential backoff, recorded outcomes with safe reasons,
// routing, disabled channels and the duplicate-suppression window.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-notify-"));
const file = path.join(dir, "test.db");
let databaseUrl = "";
const SECRET_PATH = "/hooks/s3cr3t-path-token";
let receiver: Receiver;
let clock = new Date("2026-11-22T08:00:00.000Z");

const message: NotificationMessage = {
  kind: "report",
  title: "600519 · hold · 55",
  body: "- **Action**: hold",
  link: { url: "http://dsa.local/history/7", label: "Open the full report" },
  related: { kind: "analysis", id: "query-7" },
};

function configure(extra: Record<string, string>): void {
  // The receivers listen on 127.0.0.1, which the outbound policy refuses by default.
  setEnvironmentForTests({
    ENV_FILE: path.join(dir, "missing.env"),
    DATABASE_URL: databaseUrl,
    OUTBOUND_ALLOW_PRIVATE: "true",
    ...extra,
  });
}

function rows() {
  return db().notificationDelivery.findMany({ orderBy: { id: "asc" } });
}

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl(file);
  configure({});
});
beforeEach(async () => {
  receiver = await startReceiver();
  clock = new Date("2026-11-22T08:00:00.000Z");
  setClock(() => clock);
  await db().notificationDelivery.deleteMany();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await receiver.close();
});
afterAll(async () => {
  await disconnectDb();
  setEnvironmentForTests(process.env);
  setClock(null);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("retries with exponential backoff", () => {
  it("a receiver failing twice then succeeding: 3 attempts, sent, delays base then 2×base", async () => {
    configure({
      CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}${SECRET_PATH}`,
      NOTIFICATION_RETRY_ATTEMPTS: "4",
      NOTIFICATION_RETRY_BASE_DELAY_MS: "60",
    });
    receiver.answer = (_, i) =>
      i < 2 ? { status: 503, body: { error: "busy" } } : { status: 200, body: { ok: true } };
    const result = await notify(message);
    expect(result).toEqual({
      status: "sent",
      deliveries: [{ channel: "custom", status: "sent", attempts: 3, error: null }],
    });
    expect(receiver.requests).toHaveLength(3);
    const [a, b, c] = receiver.requests.map((r) => r.at);
    expect(b! - a!).toBeGreaterThanOrEqual(55);
    expect(c! - b!).toBeGreaterThanOrEqual(115);
    const [row] = await rows();
    expect(row).toMatchObject({
      channel: "custom",
      kind: "report",
      status: "sent",
      attempts: 3,
      error: null,
      title: message.title,
      relatedKind: "analysis",
      relatedId: "query-7",
    });
    expect(row!.createdAt.toISOString()).toBe(clock.toISOString());
  });

  it("final failure: every attempt made, the reason recorded, no secret (URL path, token) in it", async () => {
    configure({
      CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}${SECRET_PATH}?key=query-secret-99`,
      CUSTOM_WEBHOOK_BEARER_TOKEN: "bearer-secret-42",
      NOTIFICATION_RETRY_ATTEMPTS: "3",
      NOTIFICATION_RETRY_BASE_DELAY_MS: "5",
    });
    // A service that echoes what it got (URL, auth header) into its error page.
    receiver.answer = (req) => ({
      status: 500,
      body: `upstream failed for http://127.0.0.1${req.url} auth=${req.headers.authorization}`,
    });
    const result = await notify(message);
    expect(result.status).toBe("failed");
    expect(result.deliveries[0]).toMatchObject({ channel: "custom", status: "failed", attempts: 3 });
    expect(receiver.requests).toHaveLength(3);
    const [row] = await rows();
    expect(row).toMatchObject({ status: "failed", attempts: 3 });
    // The answer's body is never reflected, only the status line.
    expect(row!.error).toBe("HTTP 500");
    for (const secret of ["s3cr3t-path-token", "query-secret-99", "bearer-secret-42"]) {
      expect(row!.error).not.toContain(secret);
      expect(result.deliveries[0]!.error).not.toContain(secret);
    }
  });

  it("a network failure (nothing listening) is retried and recorded without the URL", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    configure({
      CUSTOM_WEBHOOK_URLS: `http://127.0.0.1:${port}${SECRET_PATH}`,
      NOTIFICATION_RETRY_ATTEMPTS: "2",
      NOTIFICATION_RETRY_BASE_DELAY_MS: "1",
    });
    const result = await notify(message);
    expect(result.deliveries[0]).toMatchObject({ status: "failed", attempts: 2, error: "network error: ECONNREFUSED" });
  });

  it("a 4xx answer is not retried; a slow receiver times out", async () => {
    configure({
      CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/h`,
      NOTIFICATION_RETRY_ATTEMPTS: "3",
      NOTIFICATION_RETRY_BASE_DELAY_MS: "1",
    });
    receiver.answer = () => ({ status: 401, body: "unauthorized" });
    expect((await notify(message)).deliveries[0]).toMatchObject({ status: "failed", attempts: 1, error: "HTTP 401" });

    configure({
      CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/slow`,
      NOTIFICATION_RETRY_ATTEMPTS: "1",
      NOTIFICATION_TIMEOUT_MS: "500",
    });
    receiver.answer = () => ({ delayMs: 1500 });
    // The recorded reason is the client's own timeout, not the receiver's late answer.
    expect((await notify(message)).deliveries[0]).toMatchObject({
      status: "failed",
      attempts: 1,
      error: "timeout after 500 ms",
    });
  });
});

describe("no configured secret survives in a failure reason, whichever channel it belongs to", () => {
  it("a Gotify server echoing its URL path, and a service echoing another setting's key, are both redacted", async () => {
    // An unknown key named like a secret, kept in the env file, counts as one too.
    const envFile = path.join(dir, "secrets.env");
    fs.writeFileSync(envFile, "MY_VENDOR_TOKEN=vendor-token-9090\n");
    configure({
      GOTIFY_URL: `${receiver.baseUrl}/gotify/path-key-5150`,
      GOTIFY_TOKEN: "gotify-token-7070",
      OPENAI_API_KEY: "sk-other-setting-8080",
      NOTIFICATION_RETRY_ATTEMPTS: "1",
      ENV_FILE: envFile,
    });
    receiver.answer = (request) => ({
      status: 400,
      body: { error: `bad ${request.url} sk-other-setting-8080 vendor-token-9090` },
    });
    const result = await notify(message);
    expect(result.deliveries).toMatchObject([{ channel: "gotify", status: "failed" }]);
    const text = JSON.stringify([result, await rows()]);
    expect(text).toMatch(/HTTP 400/);
    for (const secret of ["path-key-5150", "gotify-token-7070", "sk-other-setting-8080", "vendor-token-9090"])
      expect(text).not.toContain(secret);
    configure({});
  });
});

describe("the outbound policy (SSRF)", () => {
  it("by default a webhook on this machine, the metadata address or a numeric loopback is refused before any request, with the reason", async () => {
    for (const url of [
      `${receiver.baseUrl}/hook`,
      "http://169.254.169.254/latest/meta-data/",
      "http://2130706433:6379/",
      "http://[::1]:6379/",
    ]) {
      configure({ CUSTOM_WEBHOOK_URLS: url, OUTBOUND_ALLOW_PRIVATE: "false", NOTIFICATION_RETRY_ATTEMPTS: "3" });
      const result = await notify({ ...message, related: { kind: "analysis", id: `ssrf-${url}` } });
      expect(result.deliveries[0], url).toMatchObject({
        status: "failed",
        attempts: 1,
        error: expect.stringMatching(/^destination refused: .*OUTBOUND_ALLOW_PRIVATE/),
      });
    }
    expect(receiver.requests).toHaveLength(0);
  });
});

describe("channels and routing", () => {
  it("only channels whose settings are complete are called, in parallel", async () => {
    const unused = await startReceiver();
    try {
      configure({
        CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom`,
        DISCORD_WEBHOOK_URL: `${receiver.baseUrl}/discord`,
        // Incomplete: a token without a chat id, a secret without a URL, a sender without password or host.
        TELEGRAM_BOT_TOKEN: "1:token",
        TELEGRAM_API_BASE_URL: unused.baseUrl,
        FEISHU_WEBHOOK_SECRET: "s",
        EMAIL_SENDER: "me@example.com",
      });
      // In parallel: the Discord request arrives while the custom webhook's request is still unanswered (no
      // wall-clock limit, which a loaded machine would break). Our flag drops before the receiver replies.
      let customOpen = false;
      let discordSawCustomOpen = false;
      receiver.answer = (req) => {
        if (req.url === "/custom") {
          customOpen = true;
          setTimeout(() => (customOpen = false), 1500);
          return { delayMs: 1500 };
        }
        discordSawCustomOpen = customOpen;
        return { status: 204, body: "" };
      };
      const result = await notify(message);
      expect(discordSawCustomOpen).toBe(true);
      expect(result.deliveries.map((d) => d.channel).sort()).toEqual(["custom", "discord"]);
      expect(receiver.requests.map((r) => r.url).sort()).toEqual(["/custom", "/discord"]);
      expect(unused.requests).toHaveLength(0);
    } finally {
      await unused.close();
    }
  });

  it("no channel configured: nothing sent, nothing recorded", async () => {
    configure({});
    expect(await notify(message)).toEqual({ status: "no_channels", deliveries: [] });
    expect(await rows()).toEqual([]);
  });

  it("NOTIFICATION_<KIND>_CHANNELS limits each kind; options.channels limits one call", async () => {
    configure({
      CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom`,
      SLACK_WEBHOOK_URL: `${receiver.baseUrl}/slack`,
      NOTIFICATION_REPORT_CHANNELS: "Slack",
    });
    receiver.answer = () => ({ body: "ok" });
    expect((await notify(message)).deliveries.map((d) => d.channel)).toEqual(["slack"]);
    expect((await notify({ ...message, kind: "alert" })).deliveries.map((d) => d.channel).sort()).toEqual([
      "custom",
      "slack",
    ]);
    expect(
      (await notify({ ...message, kind: "alert" }, { channels: ["custom"] })).deliveries.map((d) => d.channel),
    ).toEqual(["custom"]);
  });

  it("a partial outcome when one channel fails and another delivers", async () => {
    configure({
      CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom`,
      DISCORD_WEBHOOK_URL: `${receiver.baseUrl}/discord`,
      NOTIFICATION_RETRY_ATTEMPTS: "1",
    });
    receiver.answer = (req) => (req.url === "/discord" ? { status: 400, body: "bad" } : { body: { ok: true } });
    expect((await notify(message)).status).toBe("partial");
  });
});

describe("duplicate suppression (NOTIFICATION_DEDUP_TTL_SECONDS)", () => {
  it("an identical message within the window is suppressed and recorded; after it, sent again", async () => {
    configure({ CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom`, NOTIFICATION_DEDUP_TTL_SECONDS: "60" });
    expect((await notify(message)).status).toBe("sent");
    clock = new Date(clock.getTime() + 59_000);
    expect(await notify(message)).toEqual({
      status: "suppressed",
      deliveries: [
        {
          channel: "custom",
          status: "suppressed",
          attempts: 0,
          error: "duplicate within NOTIFICATION_DEDUP_TTL_SECONDS",
        },
      ],
    });
    // A different message is not a duplicate.
    expect((await notify({ ...message, body: "- **Action**: sell" })).status).toBe("sent");
    clock = new Date(clock.getTime() + 2_000);
    expect((await notify(message)).status).toBe("sent");
    expect(receiver.requests).toHaveLength(3);
    expect((await rows()).map((r) => r.status)).toEqual(["sent", "suppressed", "sent", "sent"]);
  });

  it("two identical messages at once: one is sent, the other suppressed", async () => {
    configure({ CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom`, NOTIFICATION_DEDUP_TTL_SECONDS: "60" });
    receiver.answer = () => ({ delayMs: 100 });
    const results = await Promise.all([notify(message), notify(message)]);
    expect(results.map((r) => r.status).sort()).toEqual(["sent", "suppressed"]);
    expect(receiver.requests).toHaveLength(1);
  });

  it("a failed send does not suppress the next one; with the window off every message is sent", async () => {
    configure({
      CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom`,
      NOTIFICATION_DEDUP_TTL_SECONDS: "60",
      NOTIFICATION_RETRY_ATTEMPTS: "1",
    });
    receiver.answer = (_, i) => (i === 0 ? { status: 500 } : { body: { ok: true } });
    expect((await notify(message)).status).toBe("failed");
    expect((await notify(message)).status).toBe("sent");

    configure({ CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom` });
    expect((await notify(message)).status).toBe("sent");
    expect((await notify(message)).status).toBe("sent");
  });

  it("alert triggers: kind alert, related to the trigger, deduplicated by trigger id", async () => {
    configure({ CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom`, NOTIFICATION_DEDUP_TTL_SECONDS: "3600" });
    const notice = {
      triggerId: 12,
      ruleName: "Moutai above 1500",
      target: "600519",
      message: "price 1510 crossed above 1500",
      observedValue: 1510,
      threshold: 1500,
      language: "en" as const,
    };
    expect((await notifyAlertTrigger(notice)).status).toBe("sent");
    expect((await notifyAlertTrigger({ ...notice, message: "price 1511 crossed above 1500" })).status).toBe(
      "suppressed",
    );
    expect((await notifyAlertTrigger({ ...notice, triggerId: 13 })).status).toBe("sent");
    expect(receiver.requests[0]!.json).toMatchObject({
      kind: "alert",
      title: "Alert · Moutai above 1500 · 600519",
      content: "price 1510 crossed above 1500\n- **Observed**: 1510\n- **Threshold**: 1500",
      related_kind: "alert",
      related_id: "12",
    });
  });
});

describe("the send lock across replicas (REDIS_URL)", () => {
  let namespace = "";
  let otherReplica: RedisConnection;
  beforeEach(async () => {
    namespace = useTestNamespace();
    configure({
      CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom`,
      NOTIFICATION_DEDUP_TTL_SECONDS: "60",
      REDIS_URL: REDIS_TEST_URL,
    });
    await redisConnection()!.usableClient();
    otherReplica = new RedisConnection(REDIS_TEST_URL);
    await otherReplica.usableClient();
  });
  afterEach(async () => {
    otherReplica.close();
    closeRedisConnections();
    await dropTestNamespace(namespace);
  });

  it("while another replica sends the same message it waits, then finds it sent and suppresses its copy", async () => {
    const release = await takeSendLock("custom", contentKey(message), 10_000, otherReplica);
    const sending = notify(message);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.requests).toHaveLength(0);
    // The other replica's send went out and was recorded before it let go.
    await db().notificationDelivery.create({
      data: {
        channel: "custom",
        kind: "report",
        status: "sent",
        attempts: 1,
        title: message.title,
        dedupKey: contentKey(message),
        createdAt: clock,
      },
    });
    await release();
    expect((await sending).status).toBe("suppressed");
    expect(receiver.requests).toHaveLength(0);
  });

  it("when the other replica's send failed, this one sends it; the lock is let go afterwards", async () => {
    const release = await takeSendLock("custom", contentKey(message), 10_000, otherReplica);
    const sending = notify(message);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await release();
    expect((await sending).status).toBe("sent");
    expect(receiver.requests).toHaveLength(1);
    const started = Date.now();
    await (
      await takeSendLock("custom", contentKey(message), 10_000, otherReplica)
    )();
    // A lock left held would make this wait its 10 s.
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe("long messages in parts", () => {
  it("parts go out in order; a part that keeps failing stops the rest and is named in the reason", async () => {
    configure({
      CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom`,
      NOTIFICATION_RETRY_ATTEMPTS: "2",
      NOTIFICATION_RETRY_BASE_DELAY_MS: "1",
    });
    const body = Array.from({ length: 900 }, (_, i) => `- stock ${i} ${"x".repeat(40)}`).join("\n");
    receiver.answer = (_, i) => (i === 0 ? { body: { ok: true } } : { status: 400, body: "bad part" });
    const result = await notify({ ...message, body });
    expect(result.deliveries).toEqual([
      { channel: "custom", status: "failed", attempts: 2, error: "part 2/3: HTTP 400" },
    ]);
    expect(receiver.requests.map((r) => (r.json as { title: string }).title)).toEqual([
      `${message.title} (1/3)`,
      `${message.title} (2/3)`,
    ]);
  });
});

describe("noise control (quiet hours, minimum severity, cooldown)", () => {
  // The clock is 2026-11-22 08:00 UTC = 16:00 in Shanghai.
  it("quiet hours hold every message but critical ones, recorded as suppressed with the reason; nothing reaches the channel", async () => {
    configure({
      CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom`,
      SERVICE_TIMEZONE: "Asia/Shanghai",
      NOTIFICATION_QUIET_HOURS: "15:30-16:30",
    });
    const held = await notify(message);
    expect(held).toEqual({
      status: "suppressed",
      deliveries: [
        { channel: "custom", status: "suppressed", attempts: 0, error: "quiet hours 15:30-16:30 (Asia/Shanghai)" },
      ],
    });
    expect((await notify({ ...message, severity: "critical" })).status).toBe("sent");
    clock = new Date("2026-11-22T08:31:00.000Z");
    expect((await notify(message)).status).toBe("sent");
    expect(receiver.requests).toHaveLength(2);
    expect((await rows()).map((r) => [r.status, r.error])).toEqual([
      ["suppressed", "quiet hours 15:30-16:30 (Asia/Shanghai)"],
      ["sent", null],
      ["sent", null],
    ]);
  });

  it("messages below NOTIFICATION_MIN_SEVERITY are not sent; alerts default to warning, reports to info", async () => {
    configure({ CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom`, NOTIFICATION_MIN_SEVERITY: "warning" });
    expect((await notify(message)).deliveries[0]!.error).toBe("severity info below NOTIFICATION_MIN_SEVERITY warning");
    const notice = {
      triggerId: 21,
      ruleId: 4,
      ruleName: "Moutai below 1400",
      target: "600519",
      message: "price 1390 crossed below 1400",
      language: "en" as const,
    };
    expect((await notifyAlertTrigger(notice)).status).toBe("sent");
    expect((await notifyAlertTrigger({ ...notice, triggerId: 22, severity: "info" })).status).toBe("suppressed");
    expect(receiver.requests).toHaveLength(1);
  });

  it("NOTIFICATION_COOLDOWN_SECONDS spaces out messages about one subject per channel; other subjects pass", async () => {
    configure({ CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom`, NOTIFICATION_COOLDOWN_SECONDS: "600" });
    const moutai = { ...message, subject: "stock:cn:600519" };
    expect((await notify(moutai)).status).toBe("sent");
    clock = new Date(clock.getTime() + 599_000);
    const second = await notify({ ...moutai, body: "- **Action**: sell" });
    expect(second.deliveries[0]).toMatchObject({
      status: "suppressed",
      error: "cooldown: stock:cn:600519 was notified less than 600 s ago",
    });
    expect((await notify({ ...message, subject: "stock:cn:000001", body: "- **Action**: buy" })).status).toBe("sent");
    clock = new Date(clock.getTime() + 2_000);
    expect((await notify({ ...moutai, body: "- **Action**: sell" })).status).toBe("sent");
    expect(receiver.requests).toHaveLength(3);
    // Without a subject there is nothing to cool down.
    expect((await notify({ ...message, body: "a" })).status).toBe("sent");
    expect((await notify({ ...message, body: "b" })).status).toBe("sent");
  });
});

describe("never blocking, never throwing", () => {
  it("notifyInBackground returns at once; settleNotifications waits for the sends", async () => {
    configure({ CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom` });
    receiver.answer = () => ({ delayMs: 200 });
    const sending = notifyInBackground(message);
    // Returned before anything reached the receiver: the send runs in the background.
    expect(receiver.requests).toHaveLength(0);
    expect(await rows()).toEqual([]);
    await settleNotifications();
    expect((await rows()).map((r) => r.status)).toEqual(["sent"]);
    expect((await sending).status).toBe("sent");
  });

  it("a database failure while recording is logged, and the result still says what happened", async () => {
    configure({ CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom` });
    vi.spyOn(db().notificationDelivery, "create").mockRejectedValueOnce(new Error("database is locked"));
    await expect(notify(message)).resolves.toMatchObject({ status: "sent" });
    expect(receiver.requests).toHaveLength(1);
  });

  it("invalid settings: resolves as failed instead of throwing", async () => {
    configure({ CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/custom`, NOTIFICATION_RETRY_ATTEMPTS: "not a number" });
    await expect(notify(message)).resolves.toEqual({ status: "failed", deliveries: [] });
    expect(receiver.requests).toHaveLength(0);
  });
});
