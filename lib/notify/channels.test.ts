import { createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { db, disconnectDb } from "@/lib/db/client";
import { freshDatabaseUrl } from "@/tests/kits/db/temp-database";
import { notify } from "./notify";
import { startReceiver, type Receiver } from "@/tests/kits/notify-receiver";
import { utf16Units, utf8Bytes } from "./text";
import type { NotificationMessage } from "./types";

// Each webhook channel against a local receiver: the exact body each service expects, signatures computed
// here independently, and the service's own error answers.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-notify-channels-"));
const file = path.join(dir, "test.db");
let databaseUrl = "";
const NOW = new Date("2026-11-22T08:30:00.000Z");
let receiver: Receiver;

const message: NotificationMessage = {
  kind: "report",
  title: "贵州茅台 (600519) · 买入 · 72分",
  body: "- **建议**: 买入 · 评分 72\n- **现价**: 1500.5 (+1.20%)",
  link: { url: "http://dsa.local/history/42", label: "查看完整报告" },
  related: { kind: "analysis", id: "q42" },
};

function configure(extra: Record<string, string>): void {
  setEnvironmentForTests({
    ENV_FILE: path.join(dir, "missing.env"),
    DATABASE_URL: databaseUrl,
    NOTIFICATION_RETRY_BASE_DELAY_MS: "5",
    // The receivers listen on 127.0.0.1, which the outbound policy refuses by default.
    OUTBOUND_ALLOW_PRIVATE: "true",
    ...extra,
  });
}

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl(file);
  configure({});
});
beforeEach(async () => {
  receiver = await startReceiver();
  setClock(() => NOW);
  await db().notificationDelivery.deleteMany();
});
afterEach(async () => {
  await receiver.close();
});
afterAll(async () => {
  await disconnectDb();
  setEnvironmentForTests(process.env);
  setClock(null);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("generic webhook (CUSTOM_WEBHOOK_URLS)", () => {
  it("POSTs the message as JSON with the Bearer token", async () => {
    configure({ CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/hook/one`, CUSTOM_WEBHOOK_BEARER_TOKEN: "tok-0123456789" });
    const result = await notify(message);
    expect(result).toEqual({
      status: "sent",
      deliveries: [{ channel: "custom", status: "sent", attempts: 1, error: null }],
    });
    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(req!.method).toBe("POST");
    expect(req!.url).toBe("/hook/one");
    expect(req!.headers.authorization).toBe("Bearer tok-0123456789");
    expect(req!.headers["content-type"]).toMatch(/^application\/json/);
    expect(req!.json).toEqual({
      kind: "report",
      title: message.title,
      content: `${message.body}\n\n[查看完整报告](http://dsa.local/history/42)`,
      link: "http://dsa.local/history/42",
      related_kind: "analysis",
      related_id: "q42",
      created_at: NOW.toISOString(),
    });
  });

  it("every listed URL gets the message; no token, no Authorization header; a body template is filled", async () => {
    const second = await startReceiver();
    try {
      configure({
        CUSTOM_WEBHOOK_URLS: `${receiver.baseUrl}/a, ${second.baseUrl}/b`,
        CUSTOM_WEBHOOK_BODY_TEMPLATE: '{"msg_type":"text","content":{"text":$content_json},"subject":$title_json}',
      });
      const result = await notify(message);
      expect(result.deliveries.map((d) => [d.channel, d.status])).toEqual([
        ["custom", "sent"],
        ["custom#2", "sent"],
      ]);
      for (const r of [receiver, second]) {
        expect(r.requests[0]!.headers.authorization).toBeUndefined();
        expect(r.requests[0]!.json).toEqual({
          msg_type: "text",
          content: { text: `${message.body}\n\n[查看完整报告](http://dsa.local/history/42)` },
          subject: message.title,
        });
      }
    } finally {
      await second.close();
    }
  });
});

describe("WeCom (WECHAT_WEBHOOK_URL)", () => {
  it("sends a markdown message within 4096 bytes, the link kept", async () => {
    configure({ WECHAT_WEBHOOK_URL: `${receiver.baseUrl}/cgi-bin/webhook/send?key=wecom-key-123` });
    receiver.answer = () => ({ body: { errcode: 0, errmsg: "ok" } });
    await notify(message);
    expect(receiver.requests[0]!.url).toBe("/cgi-bin/webhook/send?key=wecom-key-123");
    expect(receiver.requests[0]!.json).toEqual({
      msgtype: "markdown",
      markdown: { content: `### ${message.title}\n\n${message.body}\n\n[查看完整报告](http://dsa.local/history/42)` },
    });

    // 9,000 bytes: three numbered parts, each within 4096 bytes with the link, together the whole text.
    const result = await notify({ ...message, body: "长".repeat(3000) });
    expect(result.deliveries).toEqual([{ channel: "wechat", status: "sent", attempts: 3, error: null }]);
    const parts = receiver.requests.slice(1).map((r) => (r.json as { markdown: { content: string } }).markdown.content);
    expect(parts).toHaveLength(3);
    const bodies = parts.map((content, i) => {
      expect(utf8Bytes(content)).toBeLessThanOrEqual(4096);
      const head = `### ${message.title} (${i + 1}/3)\n\n`;
      const tail = "\n\n[查看完整报告](http://dsa.local/history/42)";
      expect(content.startsWith(head)).toBe(true);
      expect(content.endsWith(tail)).toBe(true);
      return content.slice(head.length, content.length - tail.length);
    });
    expect(bodies.join("")).toBe("长".repeat(3000));
  });

  it("an errcode answer is a failure with the service's reason, without the key", async () => {
    configure({ WECHAT_WEBHOOK_URL: `${receiver.baseUrl}/cgi-bin/webhook/send?key=wecom-key-123` });
    receiver.answer = () => ({ body: { errcode: 93000, errmsg: "invalid webhook url, key=wecom-key-123" } });
    const result = await notify(message);
    expect(result.status).toBe("failed");
    expect(result.deliveries[0]).toMatchObject({ channel: "wechat", status: "failed", attempts: 1 });
    expect(result.deliveries[0]!.error).toContain("errcode 93000: invalid webhook url");
    expect(result.deliveries[0]!.error).not.toContain("wecom-key-123");
  });
});

describe("Feishu (FEISHU_WEBHOOK_URL)", () => {
  it("sends a card with Markdown, the keyword first, signed with timestamp and sign", async () => {
    const secret = "feishu-secret-abc";
    configure({
      FEISHU_WEBHOOK_URL: `${receiver.baseUrl}/open-apis/bot/v2/hook/uuid-1`,
      FEISHU_WEBHOOK_SECRET: secret,
      FEISHU_WEBHOOK_KEYWORD: "DSA",
    });
    receiver.answer = () => ({ body: { code: 0, msg: "success", data: {} } });
    const result = await notify(message);
    expect(result.status).toBe("sent");
    const timestamp = Math.floor(NOW.getTime() / 1000);
    // Feishu: the key is "timestamp\nsecret", the message is empty.
    const sign = createHmac("sha256", `${timestamp}\n${secret}`).update(Buffer.alloc(0)).digest("base64");
    expect(receiver.requests[0]!.url).toBe("/open-apis/bot/v2/hook/uuid-1");
    expect(receiver.requests[0]!.json).toEqual({
      timestamp: String(timestamp),
      sign,
      msg_type: "interactive",
      card: {
        config: { wide_screen_mode: true },
        header: { title: { tag: "plain_text", content: message.title }, template: "blue" },
        elements: [{ tag: "markdown", content: `DSA\n${message.body}\n\n[查看完整报告](http://dsa.local/history/42)` }],
      },
    });
  });

  it("without a secret there is no signature; a non-zero code fails", async () => {
    configure({ FEISHU_WEBHOOK_URL: `${receiver.baseUrl}/hook` });
    receiver.answer = () => ({
      body: { code: 19021, msg: "sign match fail or timestamp is not within one hour from current time" },
    });
    const result = await notify(message);
    const body = receiver.requests[0]!.json as Record<string, unknown>;
    expect(body).not.toHaveProperty("sign");
    expect(body).not.toHaveProperty("timestamp");
    expect(result.deliveries[0]).toMatchObject({
      status: "failed",
      attempts: 1,
      error: "code 19021: sign match fail or timestamp is not within one hour from current time",
    });
  });
});

describe("DingTalk (DINGTALK_WEBHOOK_URL)", () => {
  it("signs the URL with timestamp and HMAC-SHA256 sign as DingTalk documents, and sends markdown", async () => {
    const secret = "SECb1234567890abcdef";
    configure({
      DINGTALK_WEBHOOK_URL: `${receiver.baseUrl}/robot/send?access_token=ding-token-xyz`,
      DINGTALK_SECRET: secret,
    });
    receiver.answer = () => ({ body: { errcode: 0, errmsg: "ok" } });
    expect((await notify(message)).status).toBe("sent");
    const url = new URL(receiver.requests[0]!.url, receiver.baseUrl);
    expect(url.pathname).toBe("/robot/send");
    expect(url.searchParams.get("access_token")).toBe("ding-token-xyz");
    const timestamp = NOW.getTime();
    expect(url.searchParams.get("timestamp")).toBe(String(timestamp));
    const expected = createHmac("sha256", Buffer.from(secret, "utf8"))
      .update(Buffer.from(`${timestamp}\n${secret}`, "utf8"))
      .digest("base64");
    expect(url.searchParams.get("sign")).toBe(expected);
    // The raw query carries the sign URL-encoded (+, / and = of Base64 escaped).
    expect(receiver.requests[0]!.url).toContain(`sign=${encodeURIComponent(expected)}`);
    expect(receiver.requests[0]!.json).toEqual({
      msgtype: "markdown",
      markdown: {
        title: message.title,
        text: `### ${message.title}\n\n${message.body}\n\n[查看完整报告](http://dsa.local/history/42)`,
      },
    });
  });

  it("a rate-limit errcode is retried", async () => {
    configure({
      DINGTALK_WEBHOOK_URL: `${receiver.baseUrl}/robot/send?access_token=t`,
      NOTIFICATION_RETRY_ATTEMPTS: "2",
    });
    receiver.answer = (_, i) => ({
      body: i === 0 ? { errcode: 130101, errmsg: "send too fast" } : { errcode: 0, errmsg: "ok" },
    });
    expect((await notify(message)).deliveries[0]).toMatchObject({ status: "sent", attempts: 2 });
  });
});

describe("Telegram (TELEGRAM_BOT_TOKEN + TELEGRAM_CHAT_ID) against a local Bot API", () => {
  const token = "123456:ABC-telegram-token";

  it("calls sendMessage with plain text, the chat and the topic", async () => {
    configure({
      TELEGRAM_BOT_TOKEN: token,
      TELEGRAM_CHAT_ID: "-100200",
      TELEGRAM_MESSAGE_THREAD_ID: "7",
      TELEGRAM_API_BASE_URL: `${receiver.baseUrl}/`,
    });
    receiver.answer = () => ({ body: { ok: true, result: { message_id: 1 } } });
    expect((await notify(message)).status).toBe("sent");
    expect(receiver.requests[0]!.url).toBe(`/bot${token}/sendMessage`);
    expect(receiver.requests[0]!.json).toEqual({
      chat_id: "-100200",
      text: `${message.title}\n\n- 建议: 买入 · 评分 72\n- 现价: 1500.5 (+1.20%)\n\n查看完整报告: http://dsa.local/history/42`,
      disable_web_page_preview: true,
      message_thread_id: 7,
    });
  });

  it("cuts to 4096 characters and reports ok=false without the token", async () => {
    configure({
      TELEGRAM_BOT_TOKEN: token,
      TELEGRAM_CHAT_ID: "5",
      TELEGRAM_API_BASE_URL: receiver.baseUrl,
      NOTIFICATION_RETRY_ATTEMPTS: "1",
    });
    receiver.answer = (_, i) =>
      i === 0
        ? { body: { ok: true } }
        : {
            status: 400,
            body: {
              ok: false,
              error_code: 400,
              description: `Bad Request: chat not found for /bot${token}/sendMessage`,
            },
          };
    await notify({ ...message, body: "x😀".repeat(3000) });
    const text = (receiver.requests[0]!.json as { text: string }).text;
    expect(utf16Units(text)).toBeLessThanOrEqual(4096);
    expect(text.endsWith("查看完整报告: http://dsa.local/history/42")).toBe(true);
    expect((receiver.requests[0]!.json as Record<string, unknown>).message_thread_id).toBeUndefined();

    const failed = await notify(message);
    expect(failed.deliveries[0]).toMatchObject({ channel: "telegram", status: "failed", attempts: 1 });
    expect(failed.deliveries[0]!.error).toContain("HTTP 400");
    expect(failed.deliveries[0]!.error).toContain("chat not found");
    expect(failed.deliveries[0]!.error).not.toContain("ABC-telegram-token");
    const row = await db().notificationDelivery.findFirst({ where: { status: "failed" } });
    expect(row!.error).not.toContain("ABC-telegram-token");
  });
});

describe("Discord and Slack webhooks", () => {
  it("Discord: content within 2000 characters, no mentions", async () => {
    configure({ DISCORD_WEBHOOK_URL: `${receiver.baseUrl}/api/webhooks/1/tok` });
    receiver.answer = () => ({ status: 204, body: "" });
    expect((await notify(message)).status).toBe("sent");
    expect(receiver.requests[0]!.json).toEqual({
      content: `**${message.title}**\n\n${message.body}\n\n[查看完整报告](http://dsa.local/history/42)`,
      allowed_mentions: { parse: [] },
    });
    await notify({ ...message, body: "y".repeat(5000) });
    const content = (receiver.requests[1]!.json as { content: string }).content;
    expect(content.length).toBeLessThanOrEqual(2000);
    expect(content.endsWith("[查看完整报告](http://dsa.local/history/42)")).toBe(true);
  });

  it("Slack: mrkdwn text with <url|label>; an answer other than ok fails", async () => {
    configure({
      SLACK_WEBHOOK_URL: `${receiver.baseUrl}/services/T0/B0/slack-secret`,
      NOTIFICATION_RETRY_ATTEMPTS: "1",
    });
    receiver.answer = (_, i) => (i === 0 ? { body: "ok" } : { status: 404, body: "no_service" });
    expect((await notify(message)).status).toBe("sent");
    expect(receiver.requests[0]!.json).toEqual({
      text: `*${message.title}*\n\n- *建议*: 买入 · 评分 72\n- *现价*: 1500.5 (+1.20%)\n\n<http://dsa.local/history/42|查看完整报告>`,
    });
    const failed = await notify(message);
    expect(failed.deliveries[0]).toMatchObject({ channel: "slack", status: "failed", error: "HTTP 404" });
  });
});
