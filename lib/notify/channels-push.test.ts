import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { ZSettings } from "@/lib/settings/settings-schema";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { configuredTargets, type ChannelTarget } from "./channels";
import { astrbotTarget } from "./channels/astrbot";
import { discordBotTarget } from "./channels/discord";
import { FEISHU_MAX_BYTES, feishuAppTarget } from "./channels/feishu";
import { gotifyTarget } from "./channels/gotify";
import { ntfyHeaderValue, ntfyTarget } from "./channels/ntfy";
import { pushoverTarget } from "./channels/pushover";
import { pushplusTarget } from "./channels/pushplus";
import { serverchanTarget, serverchanUrl } from "./channels/serverchan";
import { slackBotTarget } from "./channels/slack";
import { DeliveryError } from "./http";
import { notify } from "./notify";
import { redactReason } from "./redact";
import { startReceiver, type Receiver } from "@/tests/kits/notify-receiver";
import { utf16Units, utf8Bytes } from "./text";
import { NOTIFY_CHANNELS, type NotificationMessage } from "./types";

// The push services and bot modes against a local receiver: the exact request each service documents, the cut
// to its limit with the report link kept, its failure answers (reason, retryable or not, no secret), and which
// settings turn each channel on.

const NOW = new Date("2026-11-22T08:30:00.000Z");
const LINK = "[查看完整报告](http://dsa.local/history/42)";
let receiver: Receiver;

const message: NotificationMessage = {
  kind: "report",
  title: "贵州茅台 (600519) · 买入 · 72分",
  body: "- **建议**: 买入 · 评分 72\n- **现价**: 1500.5 (+1.20%)",
  link: { url: "http://dsa.local/history/42", label: "查看完整报告" },
  related: { kind: "analysis", id: "q42" },
};
const context = () => ({ now: NOW, timeoutMs: 5000 });
const codePoints = (text: string) => Array.from(text).length;

/** The attempt's DeliveryError; fails the test when the send succeeds or throws anything else. */
async function failure(target: ChannelTarget, msg: NotificationMessage = message, now = NOW): Promise<DeliveryError> {
  const error = await target.send(msg, { now, timeoutMs: 5000 }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return error as DeliveryError;
}

/** The reason as notify() stores it. */
function stored(target: ChannelTarget, error: Error): string {
  return redactReason(error.message, target.secrets);
}

/** RFC 2047 Base64 encoded-words decoded independently of the channel's encoder. */
function decodeWords(value: string): string {
  const bytes = value.split(" ").map((word) => {
    const match = /^=\?UTF-8\?B\?([A-Za-z0-9+/=]+)\?=$/.exec(word);
    expect(match, word).not.toBeNull();
    expect(word.length).toBeLessThanOrEqual(75);
    return Buffer.from(match![1]!, "base64");
  });
  return Buffer.concat(bytes).toString("utf8");
}

function settingsWith(values: Record<string, string>) {
  return ZSettings.parse(values);
}

// The receivers listen on 127.0.0.1, which the outbound policy refuses by default.
beforeAll(() => setEnvironmentForTests({ ...process.env, OUTBOUND_ALLOW_PRIVATE: "true" }));
afterAll(() => setEnvironmentForTests(process.env));
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
});

describe("ntfy (NTFY_URL, NTFY_TOKEN)", () => {
  it("POSTs the Markdown text to the topic URL with Title (RFC 2047 for non-ASCII), Markdown, Click and the Bearer token", async () => {
    const target = ntfyTarget({ url: `${receiver.baseUrl}/dsa-alerts`, token: "tk_ntfy0123456789" });
    await target.send(message, context());
    const [req] = receiver.requests;
    expect(req!.method).toBe("POST");
    expect(req!.url).toBe("/dsa-alerts");
    expect(req!.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(req!.headers.authorization).toBe("Bearer tk_ntfy0123456789");
    expect(req!.headers.markdown).toBe("yes");
    expect(req!.headers.click).toBe("http://dsa.local/history/42");
    expect(req!.headers["x-priority"]).toBeUndefined();
    // The raw header is ASCII only; decoded it is the title.
    expect(req!.headers.title).toMatch(/^[\x20-\x7e]+$/);
    expect(decodeWords(req!.headers.title as string)).toBe(message.title);
    expect(req!.text).toBe(`${message.body}\n\n${LINK}`);
  });

  it("an ASCII title is sent as is; no token, no Authorization; an alert is high priority; a long title is split into encoded-words", async () => {
    const target = ntfyTarget({ url: `${receiver.baseUrl}/t`, token: "" });
    await target.send({ ...message, kind: "alert", title: "600519 crossed 1500", link: null }, context());
    const [req] = receiver.requests;
    expect(req!.headers.title).toBe("600519 crossed 1500");
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.headers.click).toBeUndefined();
    expect(req!.headers["x-priority"]).toBe("high");
    expect(req!.text).toBe(message.body);

    const long = "市场复盘 ".repeat(20) + "😀 done";
    const encoded = ntfyHeaderValue(long);
    expect(encoded.split(" ").length).toBeGreaterThan(3);
    expect(decodeWords(encoded)).toBe(long.trim());
  });

  it("cuts the body to 4096 bytes, keeping the link", async () => {
    const target = ntfyTarget({ url: `${receiver.baseUrl}/t`, token: "" });
    await target.send({ ...message, body: "长".repeat(3000) }, context());
    const text = receiver.requests[0]!.text;
    expect(utf8Bytes(text)).toBeLessThanOrEqual(4096);
    expect(utf8Bytes(text)).toBeGreaterThan(4000);
    expect(text.endsWith(`…\n\n${LINK}`)).toBe(true);
  });

  it("a 403 is a permanent failure with ntfy's error; 429 and 5xx are retryable; the token never shows", async () => {
    const target = ntfyTarget({ url: `${receiver.baseUrl}/secret-topic-9876`, token: "tk_ntfy0123456789" });
    receiver.answer = () => ({
      status: 403,
      body: { code: 40301, http: 403, error: "forbidden", link: "https://ntfy.sh/docs/publish/#authentication" },
    });
    const forbidden = await failure(target);
    expect(forbidden.message).toBe("HTTP 403: forbidden (40301)");
    expect(forbidden.retryable).toBe(false);

    receiver.answer = () => ({
      status: 429,
      body: { code: 42901, http: 429, error: "limit reached: too many requests" },
    });
    const limited = await failure(target);
    expect(limited.retryable).toBe(true);
    expect(limited.message).toContain("too many requests");

    receiver.answer = () => ({ status: 502, body: "bad gateway tk_ntfy0123456789" });
    const bad = await failure(target);
    expect(bad.retryable).toBe(true);
    // A body that is not the service's JSON error is never echoed.
    expect(stored(target, bad)).toBe("HTTP 502");
  });
});

describe("Gotify (GOTIFY_URL, GOTIFY_TOKEN)", () => {
  it("POSTs /message with X-Gotify-Key and the Markdown and click extras", async () => {
    const target = gotifyTarget({ url: `${receiver.baseUrl}/gotify`, token: "AgotifyAppToken1" });
    await target.send(message, context());
    const [req] = receiver.requests;
    expect(req!.method).toBe("POST");
    expect(req!.url).toBe("/gotify/message");
    expect(req!.headers["x-gotify-key"]).toBe("AgotifyAppToken1");
    expect(req!.headers["content-type"]).toMatch(/^application\/json/);
    expect(req!.json).toEqual({
      title: message.title,
      message: `${message.body}\n\n${LINK}`,
      priority: 5,
      extras: {
        "client::display": { contentType: "text/markdown" },
        "client::notification": { click: { url: "http://dsa.local/history/42" } },
      },
    });
  });

  it("alerts get priority 8; without a link there is no click extra; long text is cut with the link kept", async () => {
    const target = gotifyTarget({ url: receiver.baseUrl, token: "AgotifyAppToken1" });
    await target.send({ ...message, kind: "alert", link: null }, context());
    expect(receiver.requests[0]!.json).toMatchObject({
      priority: 8,
      extras: { "client::display": { contentType: "text/markdown" } },
    });
    expect((receiver.requests[0]!.json as { extras: object }).extras).not.toHaveProperty("client::notification");

    await target.send({ ...message, body: "x".repeat(30_000) }, context());
    const text = (receiver.requests[1]!.json as { message: string }).message;
    expect(utf16Units(text)).toBeLessThanOrEqual(20_000);
    expect(utf16Units(text)).toBeGreaterThan(19_000);
    expect(text.endsWith(`…\n\n${LINK}`)).toBe(true);
  });

  it("a 401 is a permanent failure with Gotify's description; a 5xx is retryable; the token never shows", async () => {
    const target = gotifyTarget({ url: receiver.baseUrl, token: "AgotifyAppToken1" });
    receiver.answer = () => ({
      status: 401,
      body: {
        error: "Unauthorized",
        errorCode: 401,
        errorDescription: "you need to provide a valid access token or user credentials to access this api",
      },
    });
    const denied = await failure(target);
    expect(denied.retryable).toBe(false);
    expect(denied.message).toContain("HTTP 401");
    expect(denied.message).toContain("you need to provide a valid access token");
    expect(denied.message).not.toContain("AgotifyAppToken1");

    receiver.answer = () => ({
      status: 500,
      body: { error: "Internal Server Error", errorCode: 500, errorDescription: "token AgotifyAppToken1" },
    });
    const broken = await failure(target);
    expect(broken.retryable).toBe(true);
    expect(stored(target, broken)).not.toContain("AgotifyAppToken1");
  });
});

describe("Pushover (PUSHOVER_USER_KEY + PUSHOVER_API_TOKEN)", () => {
  const keys = { userKey: "uQiRzpo4DXghDmr9QzzfQu27cmVRsG", apiToken: "azGDORePK8gMaC0QOYAMyEEuzJnyUi" };

  it("POSTs /1/messages.json with token, user, title, plain text and the link as url + url_title", async () => {
    const target = pushoverTarget({ ...keys, apiBaseUrl: receiver.baseUrl });
    receiver.answer = () => ({ body: { status: 1, request: "647d2300-702c-4b38-8b2f-d56326ae460b" } });
    await target.send(message, context());
    const [req] = receiver.requests;
    expect(req!.method).toBe("POST");
    expect(req!.url).toBe("/1/messages.json");
    expect(req!.headers["content-type"]).toMatch(/^application\/json/);
    expect(req!.json).toEqual({
      token: keys.apiToken,
      user: keys.userKey,
      title: message.title,
      message: "- 建议: 买入 · 评分 72\n- 现价: 1500.5 (+1.20%)",
      url: "http://dsa.local/history/42",
      url_title: "查看完整报告",
    });
  });

  it("cuts the message to 1024 characters and the title to 250; a URL over 512 characters goes at the end of the text", async () => {
    const target = pushoverTarget({ ...keys, apiBaseUrl: receiver.baseUrl });
    receiver.answer = () => ({ body: { status: 1 } });
    await target.send({ ...message, title: "标".repeat(300), body: "x😀".repeat(1000) }, context());
    const sent = receiver.requests[0]!.json as { message: string; title: string; url: string };
    expect(codePoints(sent.message)).toBeLessThanOrEqual(1024);
    expect(codePoints(sent.message)).toBeGreaterThan(1000);
    expect(codePoints(sent.title)).toBe(250);
    expect(sent.url).toBe("http://dsa.local/history/42");

    const longUrl = `http://dsa.local/history/42?${"q".repeat(600)}`;
    await target.send({ ...message, body: "y".repeat(2000), link: { url: longUrl, label: "report" } }, context());
    const second = receiver.requests[1]!.json as Record<string, string>;
    expect(second).not.toHaveProperty("url");
    expect(codePoints(second.message!)).toBeLessThanOrEqual(1024);
    expect(second.message!.endsWith(`…\n\nreport: ${longUrl}`)).toBe(true);
  });

  it("status 0 fails with the errors joined; a 4xx is permanent, 429 and 5xx retryable; no key or token in the reason", async () => {
    const target = pushoverTarget({ ...keys, apiBaseUrl: receiver.baseUrl });
    receiver.answer = () => ({
      status: 400,
      body: {
        user: "invalid",
        errors: ["user identifier is not a valid user, group, or subscribed user key", "message cannot be blank"],
        status: 0,
        request: "r1",
      },
    });
    const invalid = await failure(target);
    expect(invalid.message).toBe(
      "HTTP 400: user identifier is not a valid user, group, or subscribed user key; message cannot be blank",
    );
    expect(invalid.retryable).toBe(false);

    receiver.answer = () => ({
      status: 200,
      body: { status: 0, errors: ["application token is invalid"], request: "r2" },
    });
    const zero = await failure(target);
    expect(zero.message).toBe("pushover status 0: application token is invalid");
    expect(zero.retryable).toBe(false);

    receiver.answer = () => ({ status: 429, body: { status: 0, errors: ["message limit reached"] } });
    expect((await failure(target)).retryable).toBe(true);
    receiver.answer = () => ({ status: 503, body: `upstream down for token ${keys.apiToken} user ${keys.userKey}` });
    const down = await failure(target);
    expect(down.retryable).toBe(true);
    expect(stored(target, down)).not.toContain(keys.apiToken);
    expect(stored(target, down)).not.toContain(keys.userKey);
  });
});

describe("PushPlus (PUSHPLUS_TOKEN, PUSHPLUS_TOPIC)", () => {
  it("POSTs /send with token, title, Markdown content, the markdown template and the topic", async () => {
    const target = pushplusTarget({
      token: "be8652e98bd04139a13e1bffcd6d0f71",
      topic: "dsa-group",
      apiBaseUrl: receiver.baseUrl,
    });
    receiver.answer = () => ({ body: { code: 200, msg: "请求成功", data: "075074e3c17e449e9a0cb79cc6f3fc83" } });
    await target.send(message, context());
    const [req] = receiver.requests;
    expect(req!.method).toBe("POST");
    expect(req!.url).toBe("/send");
    expect(req!.headers["content-type"]).toMatch(/^application\/json/);
    expect(req!.json).toEqual({
      token: "be8652e98bd04139a13e1bffcd6d0f71",
      title: message.title,
      content: `${message.body}\n\n${LINK}`,
      template: "markdown",
      topic: "dsa-group",
    });
  });

  it("no topic field without PUSHPLUS_TOPIC; long content is cut to 20000 characters with the link kept", async () => {
    const target = pushplusTarget({
      token: "be8652e98bd04139a13e1bffcd6d0f71",
      topic: "",
      apiBaseUrl: receiver.baseUrl,
    });
    receiver.answer = () => ({ body: { code: 200, msg: "请求成功" } });
    await target.send({ ...message, body: "长".repeat(25_000) }, context());
    const sent = receiver.requests[0]!.json as Record<string, string>;
    expect(sent).not.toHaveProperty("topic");
    expect(utf16Units(sent.content!)).toBeLessThanOrEqual(20_000);
    expect(utf16Units(sent.content!)).toBeGreaterThan(19_000);
    expect(sent.content!.endsWith(`…\n\n${LINK}`)).toBe(true);
  });

  it("a code other than 200 fails with msg; 500 is retryable, 903 and 900 are not; HTTP 5xx is retryable", async () => {
    const target = pushplusTarget({
      token: "be8652e98bd04139a13e1bffcd6d0f71",
      topic: "",
      apiBaseUrl: receiver.baseUrl,
    });
    receiver.answer = () => ({ body: { code: 903, msg: "无效的用户令牌", data: null } });
    const invalid = await failure(target);
    expect(invalid.message).toBe("code 903: 无效的用户令牌");
    expect(invalid.retryable).toBe(false);

    receiver.answer = () => ({ body: { code: 900, msg: "用户账号使用受限" } });
    expect((await failure(target)).retryable).toBe(false);
    receiver.answer = () => ({ body: { code: 500, msg: "系统异常,请稍后再试" } });
    expect((await failure(target)).retryable).toBe(true);
    receiver.answer = () => ({ status: 503, body: "token be8652e98bd04139a13e1bffcd6d0f71 unavailable" });
    const down = await failure(target);
    expect(down.retryable).toBe(true);
    expect(stored(target, down)).not.toContain("be8652e98bd04139a13e1bffcd6d0f71");
  });
});

describe("ServerChan³ (SERVERCHAN3_SENDKEY)", () => {
  const sendkey = "sctp12345tAbCdEf0123456789";

  it("takes the uid from the SendKey for the host; older SCT keys use the Turbo API", () => {
    expect(serverchanUrl({ sendkey })).toBe(`https://12345.push.ft07.com/send/${sendkey}.send`);
    expect(serverchanUrl({ sendkey: "SCT98765abcdef" })).toBe("https://sctapi.ftqq.com/SCT98765abcdef.send");
    expect(serverchanUrl({ sendkey, apiBaseUrl: "http://127.0.0.1:1/" })).toBe(
      `http://127.0.0.1:1/send/${sendkey}.send`,
    );
  });

  it("POSTs {title, desp} to /send/<sendkey>.send; the title is cut to 32 characters and desp within 30000 bytes with the link kept", async () => {
    const target = serverchanTarget({ sendkey, apiBaseUrl: receiver.baseUrl });
    receiver.answer = () => ({ body: { code: 0, message: "SUCCESS", data: { pushid: "1", meta: {} } } });
    await target.send(message, context());
    const [req] = receiver.requests;
    expect(req!.method).toBe("POST");
    expect(req!.url).toBe(`/send/${sendkey}.send`);
    expect(req!.json).toEqual({ title: message.title, desp: `${message.body}\n\n${LINK}` });

    await target.send({ ...message, title: "标题".repeat(30), body: "长".repeat(12_000) }, context());
    const sent = receiver.requests[1]!.json as { title: string; desp: string };
    expect(sent.title).toBe("标题".repeat(16));
    expect(utf8Bytes(sent.desp)).toBeLessThanOrEqual(30_000);
    expect(utf8Bytes(sent.desp)).toBeGreaterThan(29_000);
    expect(sent.desp.endsWith(`…\n\n${LINK}`)).toBe(true);
  });

  it("a non-zero code fails with the service's message, without the SendKey; HTTP 5xx is retryable", async () => {
    const target = serverchanTarget({ sendkey, apiBaseUrl: receiver.baseUrl });
    receiver.answer = () => ({ body: { code: 40001, message: `bad pushkey ${sendkey}` } });
    const bad = await failure(target);
    expect(bad.retryable).toBe(false);
    expect(stored(target, bad)).toBe("code 40001: bad pushkey ***");

    receiver.answer = () => ({ status: 500, body: "oops" });
    expect((await failure(target)).retryable).toBe(true);
  });
});

describe("AstrBot (ASTRBOT_URL, ASTRBOT_TOKEN)", () => {
  it("POSTs the generic webhook's JSON with the Bearer token; any 2xx is delivered", async () => {
    const target = astrbotTarget({ url: `${receiver.baseUrl}/astrbot/notify`, token: "astr-token-42" });
    receiver.answer = () => ({ status: 204, body: "" });
    await target.send(message, context());
    const [req] = receiver.requests;
    expect(req!.url).toBe("/astrbot/notify");
    expect(req!.headers.authorization).toBe("Bearer astr-token-42");
    expect(req!.json).toEqual({
      kind: "report",
      title: message.title,
      content: `${message.body}\n\n${LINK}`,
      link: "http://dsa.local/history/42",
      related_kind: "analysis",
      related_id: "q42",
      created_at: NOW.toISOString(),
    });

    await astrbotTarget({ url: `${receiver.baseUrl}/astrbot/notify`, token: "" }).send(message, context());
    expect(receiver.requests[1]!.headers.authorization).toBeUndefined();
  });

  it("a 4xx is permanent, a 5xx retryable; neither URL nor token in the stored reason", async () => {
    const target = astrbotTarget({ url: `${receiver.baseUrl}/astrbot/hook-secret-77`, token: "astr-token-42" });
    receiver.answer = () => ({ status: 401, body: { error: "bad token astr-token-42" } });
    const denied = await failure(target);
    expect(denied.retryable).toBe(false);
    expect(stored(target, denied)).toContain("HTTP 401");
    expect(stored(target, denied)).not.toContain("astr-token-42");

    receiver.answer = () => ({ status: 503, body: `down: ${receiver.baseUrl}/astrbot/hook-secret-77` });
    const down = await failure(target);
    expect(down.retryable).toBe(true);
    expect(stored(target, down)).not.toContain("hook-secret-77");
  });
});

describe("Discord bot (DISCORD_BOT_TOKEN + DISCORD_MAIN_CHANNEL_ID)", () => {
  const token = "MTIzNDU2Nzg5.discord-bot-token";

  it("POSTs /api/v10/channels/{id}/messages with Authorization: Bot, the webhook's body, cut to 2000 with the link", async () => {
    const target = discordBotTarget({ botToken: token, channelId: "112233445566", apiBaseUrl: receiver.baseUrl });
    receiver.answer = () => ({ body: { id: "1", channel_id: "112233445566" } });
    await target.send(message, context());
    const [req] = receiver.requests;
    expect(req!.method).toBe("POST");
    expect(req!.url).toBe("/api/v10/channels/112233445566/messages");
    expect(req!.headers.authorization).toBe(`Bot ${token}`);
    expect(req!.json).toEqual({
      content: `**${message.title}**\n\n${message.body}\n\n${LINK}`,
      allowed_mentions: { parse: [] },
    });

    await target.send({ ...message, body: "y".repeat(5000) }, context());
    const content = (receiver.requests[1]!.json as { content: string }).content;
    expect(content.length).toBeLessThanOrEqual(2000);
    expect(content.endsWith(LINK)).toBe(true);
  });

  it("a 403 is permanent with Discord's message; a 429 is retryable; the token never shows", async () => {
    const target = discordBotTarget({ botToken: token, channelId: "1", apiBaseUrl: receiver.baseUrl });
    receiver.answer = () => ({ status: 403, body: { message: "Missing Permissions", code: 50013 } });
    const denied = await failure(target);
    expect(denied.retryable).toBe(false);
    expect(denied.message).toContain("HTTP 403");
    expect(denied.message).toContain("Missing Permissions");
    receiver.answer = () => ({
      status: 429,
      body: { message: "You are being rate limited.", retry_after: 0.5, global: false },
    });
    const limited = await failure(target);
    expect(limited.retryable).toBe(true);
    expect(stored(target, limited)).not.toContain(token);
  });
});

describe("Slack bot (SLACK_BOT_TOKEN + SLACK_CHANNEL_ID)", () => {
  const token = "xoxb-1111-2222-slackbottoken";

  it("calls chat.postMessage with the Bearer token, the channel, mrkdwn text and mrkdwn: true", async () => {
    const target = slackBotTarget({ botToken: token, channelId: "C0123456", apiBaseUrl: receiver.baseUrl });
    receiver.answer = () => ({ body: { ok: true, channel: "C0123456", ts: "1503435956.000247" } });
    await target.send(message, context());
    const [req] = receiver.requests;
    expect(req!.method).toBe("POST");
    expect(req!.url).toBe("/api/chat.postMessage");
    expect(req!.headers.authorization).toBe(`Bearer ${token}`);
    expect(req!.json).toEqual({
      channel: "C0123456",
      text: `*${message.title}*\n\n- *建议*: 买入 · 评分 72\n- *现价*: 1500.5 (+1.20%)\n\n<http://dsa.local/history/42|查看完整报告>`,
      mrkdwn: true,
    });

    await target.send({ ...message, body: "z".repeat(45_000) }, context());
    const text = (receiver.requests[1]!.json as { text: string }).text;
    expect(text.length).toBeLessThanOrEqual(39_000);
    expect(text.endsWith("<http://dsa.local/history/42|查看完整报告>")).toBe(true);
  });

  it("ok: false fails with Slack's error (ratelimited retryable, channel_not_found not); HTTP 429 is retryable", async () => {
    const target = slackBotTarget({ botToken: token, channelId: "C0", apiBaseUrl: receiver.baseUrl });
    receiver.answer = () => ({ body: { ok: false, error: "channel_not_found" } });
    const missing = await failure(target);
    expect(missing.message).toBe("slack answered ok=false: channel_not_found");
    expect(missing.retryable).toBe(false);
    receiver.answer = () => ({ body: { ok: false, error: "ratelimited" } });
    expect((await failure(target)).retryable).toBe(true);
    receiver.answer = () => ({ status: 429, body: { ok: false, error: "ratelimited" } });
    const limited = await failure(target);
    expect(limited.retryable).toBe(true);
    expect(stored(target, limited)).not.toContain(token);
  });
});

describe("Feishu app mode (FEISHU_APP_ID + FEISHU_APP_SECRET + FEISHU_CHAT_ID)", () => {
  const app = { appId: "cli_a1b2c3d4e5", appSecret: "feishu-app-secret-XYZ" };
  const TOKEN_PATH = "/open-apis/auth/v3/tenant_access_token/internal";

  function tokenThenSent(tokens: string[] = ["t-g1044ab1token"], expire = 7200) {
    let issued = 0;
    receiver.answer = (req) =>
      req.url === TOKEN_PATH
        ? { body: { code: 0, msg: "ok", tenant_access_token: tokens[Math.min(issued++, tokens.length - 1)], expire } }
        : { body: { code: 0, msg: "success", data: { message_id: "om_1" } } };
  }

  it("gets a tenant_access_token, then sends the card to the chat; the token is reused for the next message", async () => {
    const target = feishuAppTarget({ ...app, chatId: "oc_5ad11d72b830411d72b836c20", apiBaseUrl: receiver.baseUrl });
    tokenThenSent();
    await target.send(message, context());
    await target.send({ ...message, kind: "alert" }, context());
    expect(receiver.requests.map((r) => r.url)).toEqual([
      TOKEN_PATH,
      "/open-apis/im/v1/messages?receive_id_type=chat_id",
      "/open-apis/im/v1/messages?receive_id_type=chat_id",
    ]);
    expect(receiver.requests[0]!.json).toEqual({ app_id: app.appId, app_secret: app.appSecret });
    const send = receiver.requests[1]!;
    expect(send.headers.authorization).toBe("Bearer t-g1044ab1token");
    const body = send.json as { receive_id: string; msg_type: string; content: string };
    expect(body.receive_id).toBe("oc_5ad11d72b830411d72b836c20");
    expect(body.msg_type).toBe("interactive");
    expect(JSON.parse(body.content)).toEqual({
      config: { wide_screen_mode: true },
      header: { title: { tag: "plain_text", content: message.title }, template: "blue" },
      elements: [{ tag: "markdown", content: `${message.body}\n\n${LINK}` }],
    });
    expect(JSON.parse((receiver.requests[2]!.json as { content: string }).content).header.template).toBe("red");
  });

  it("an ou_ id is an open_id; the card is cut within the limit with the link kept", async () => {
    const target = feishuAppTarget({
      ...app,
      chatId: "ou_7d8a6e6df7621556ce0d21922b676706ccs",
      apiBaseUrl: receiver.baseUrl,
    });
    tokenThenSent();
    await target.send({ ...message, body: "长".repeat(8000) }, context());
    expect(receiver.requests[1]!.url).toBe("/open-apis/im/v1/messages?receive_id_type=open_id");
    const card = JSON.parse((receiver.requests[1]!.json as { content: string }).content) as {
      elements: { content: string }[];
    };
    const content = card.elements[0]!.content;
    expect(utf8Bytes(content)).toBeLessThanOrEqual(FEISHU_MAX_BYTES);
    expect(utf8Bytes(content)).toBeGreaterThan(FEISHU_MAX_BYTES - 100);
    expect(content.endsWith(`…\n\n${LINK}`)).toBe(true);
  });

  it("a new token is fetched shortly before the old one expires, and after the token is rejected", async () => {
    const target = feishuAppTarget({ ...app, chatId: "oc_1", apiBaseUrl: receiver.baseUrl });
    tokenThenSent(["t-first", "t-second", "t-third"], 7200);
    await target.send(message, context());
    // 7200 s minus the 5 minute margin: at 1 h 56 min the first token is still used, at 1 h 56 min 1 s no longer.
    await target.send(message, { now: new Date(NOW.getTime() + (7200 - 300) * 1000 - 1000), timeoutMs: 5000 });
    await target.send(message, { now: new Date(NOW.getTime() + (7200 - 300) * 1000 + 1000), timeoutMs: 5000 });
    const auth = receiver.requests.filter((r) => r.url !== TOKEN_PATH).map((r) => r.headers.authorization);
    expect(auth).toEqual(["Bearer t-first", "Bearer t-first", "Bearer t-second"]);

    const base = receiver.answer;
    receiver.answer = (req, i) =>
      req.url === TOKEN_PATH
        ? base(req, i)
        : { status: 400, body: { code: 99991663, msg: "Invalid access token for authorization." } };
    const rejected = await failure(target, message, new Date(NOW.getTime() + 7200 * 1000));
    expect(rejected.retryable).toBe(true);
    expect(rejected.message).toBe("message: HTTP 400: code 99991663: Invalid access token for authorization.");
    receiver.answer = base;
    await target.send(message, { now: new Date(NOW.getTime() + 7200 * 1000), timeoutMs: 5000 });
    expect(receiver.requests.at(-1)!.headers.authorization).toBe("Bearer t-third");
  });

  it("a refused app secret is a permanent failure naming the step; rate limits are retryable; nothing secret in the reason", async () => {
    const target = feishuAppTarget({ ...app, chatId: "oc_1", apiBaseUrl: receiver.baseUrl });
    receiver.answer = () => ({ body: { code: 10014, msg: `app secret invalid: ${app.appSecret}` } });
    const refused = await failure(target);
    expect(refused.retryable).toBe(false);
    expect(refused.message).toMatch(/^tenant_access_token: code 10014: app secret invalid/);
    expect(stored(target, refused)).not.toContain(app.appSecret);

    tokenThenSent(["t-visible-token"]);
    const base = receiver.answer;
    receiver.answer = (req, i) =>
      req.url === TOKEN_PATH
        ? base(req, i)
        : { status: 400, body: { code: 230002, msg: "Bot/User can NOT be out of the chat. t-visible-token" } };
    const outside = await failure(target);
    expect(outside.retryable).toBe(false);
    expect(outside.message).toContain("code 230002: Bot/User can NOT be out of the chat.");
    expect(stored(target, outside)).not.toContain("t-visible-token");

    receiver.answer = (req, i) =>
      req.url === TOKEN_PATH
        ? base(req, i)
        : { status: 400, body: { code: 230020, msg: "This operation triggers the frequency limit." } };
    expect((await failure(target)).retryable).toBe(true);
    receiver.answer = (req, i) =>
      req.url === TOKEN_PATH ? base(req, i) : { status: 502, body: "<html>bad gateway</html>" };
    const bad = await failure(target);
    expect(bad.retryable).toBe(true);
    expect(bad.message).toBe("message: HTTP 502: unexpected answer");
  });
});

describe("configuredTargets: each channel only when its settings are complete", () => {
  const ids = (values: Record<string, string>) => configuredTargets(settingsWith(values)).map((t) => [t.id, t.channel]);

  it("nothing set: no targets", () => {
    expect(ids({})).toEqual([]);
  });

  it.each([
    [{ PUSHOVER_USER_KEY: "u" }, []],
    [{ PUSHOVER_API_TOKEN: "a" }, []],
    [{ PUSHOVER_USER_KEY: "u", PUSHOVER_API_TOKEN: "a" }, [["pushover", "pushover"]]],
    [{ NTFY_TOKEN: "tk" }, []],
    [{ NTFY_URL: "https://ntfy.sh/topic" }, [["ntfy", "ntfy"]]],
    [{ GOTIFY_URL: "https://push.example" }, []],
    [{ GOTIFY_TOKEN: "A1" }, []],
    [{ GOTIFY_URL: "https://push.example/", GOTIFY_TOKEN: "A1" }, [["gotify", "gotify"]]],
    [{ PUSHPLUS_TOPIC: "grp" }, []],
    [{ PUSHPLUS_TOKEN: "pp" }, [["pushplus", "pushplus"]]],
    [{ SERVERCHAN3_SENDKEY: "sctp1t2" }, [["serverchan3", "serverchan3"]]],
    [{ ASTRBOT_TOKEN: "t" }, []],
    [{ ASTRBOT_URL: "https://bot.example/hook" }, [["astrbot", "astrbot"]]],
    [{ DISCORD_BOT_TOKEN: "d" }, []],
    [{ DISCORD_MAIN_CHANNEL_ID: "1" }, []],
    [{ DISCORD_BOT_TOKEN: "d", DISCORD_MAIN_CHANNEL_ID: "1" }, [["discord", "discord"]]],
    [{ SLACK_BOT_TOKEN: "xoxb" }, []],
    [{ SLACK_CHANNEL_ID: "C1" }, []],
    [{ SLACK_BOT_TOKEN: "xoxb", SLACK_CHANNEL_ID: "C1" }, [["slack", "slack"]]],
    [{ FEISHU_APP_ID: "cli", FEISHU_APP_SECRET: "s" }, []],
    [{ FEISHU_APP_ID: "cli", FEISHU_CHAT_ID: "oc_1" }, []],
    [{ FEISHU_APP_SECRET: "s", FEISHU_CHAT_ID: "oc_1" }, []],
    [{ FEISHU_APP_ID: "cli", FEISHU_APP_SECRET: "s", FEISHU_CHAT_ID: "oc_1" }, [["feishu-app", "feishu"]]],
  ] as [Record<string, string>, string[][]][])("%o → %j", (values, expected) => {
    expect(ids(values)).toEqual(expected);
  });

  it("Feishu webhook and app mode are two deliveries; Slack prefers the bot, Discord the webhook; names are routing names", () => {
    const targets = configuredTargets(
      settingsWith({
        FEISHU_WEBHOOK_URL: "https://open.feishu.cn/open-apis/bot/v2/hook/abc",
        FEISHU_APP_ID: "cli",
        FEISHU_APP_SECRET: "app-secret",
        FEISHU_CHAT_ID: "oc_1",
        SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T/B/x",
        SLACK_BOT_TOKEN: "xoxb-bot",
        SLACK_CHANNEL_ID: "C1",
        DISCORD_WEBHOOK_URL: "https://discord.com/api/webhooks/1/tok",
        DISCORD_BOT_TOKEN: "bot-token",
        DISCORD_MAIN_CHANNEL_ID: "1",
        PUSHOVER_USER_KEY: "user-key",
        PUSHOVER_API_TOKEN: "api-token",
        NTFY_URL: "https://ntfy.sh/t",
        NTFY_TOKEN: "tk_1",
        GOTIFY_URL: "https://g.example",
        GOTIFY_TOKEN: "gtok",
        PUSHPLUS_TOKEN: "pptok",
        SERVERCHAN3_SENDKEY: "sctp1tkey",
        ASTRBOT_URL: "https://a.example/hook",
        ASTRBOT_TOKEN: "atok",
      }),
    );
    expect(targets.map((t) => [t.id, t.channel])).toEqual([
      ["feishu", "feishu"],
      ["feishu-app", "feishu"],
      ["discord", "discord"],
      ["slack", "slack"],
      ["pushover", "pushover"],
      ["ntfy", "ntfy"],
      ["gotify", "gotify"],
      ["pushplus", "pushplus"],
      ["serverchan3", "serverchan3"],
      ["astrbot", "astrbot"],
    ]);
    const byId = new Map(targets.map((t) => [t.id, t]));
    expect(byId.get("slack")!.secrets).toEqual(["xoxb-bot"]);
    expect(byId.get("discord")!.secrets).toEqual(["https://discord.com/api/webhooks/1/tok"]);
    expect(byId.get("feishu-app")!.secrets).toContain("app-secret");
    expect(byId.get("pushover")!.secrets).toEqual(expect.arrayContaining(["user-key", "api-token"]));
    expect(byId.get("ntfy")!.secrets).toEqual(expect.arrayContaining(["https://ntfy.sh/t", "tk_1"]));
    expect(byId.get("gotify")!.secrets).toContain("gtok");
    expect(byId.get("pushplus")!.secrets).toContain("pptok");
    expect(byId.get("serverchan3")!.secrets).toContain("sctp1tkey");
    expect(byId.get("astrbot")!.secrets).toEqual(expect.arrayContaining(["https://a.example/hook", "atok"]));
    for (const target of targets) expect(NOTIFY_CHANNELS).toContain(target.channel);
  });
});

describe("notify() with the URL-configured push channels", () => {
  const temp = withTempDatabase("notify-push", { OUTBOUND_ALLOW_PRIVATE: "true" });

  function configure(extra: Record<string, string>): void {
    temp.useSettings({ NOTIFICATION_RETRY_BASE_DELAY_MS: "5", ...extra });
    setClock(() => NOW);
  }

  it("ntfy, Gotify and AstrBot are sent from settings, routed by channel name, and a failure is stored without the token", async () => {
    configure({
      NTFY_URL: `${receiver.baseUrl}/ntfy-topic`,
      NTFY_TOKEN: "tk_ntfy_secret_1",
      GOTIFY_URL: `${receiver.baseUrl}/gotify/`,
      GOTIFY_TOKEN: "gotify-secret-2",
      ASTRBOT_URL: `${receiver.baseUrl}/astrbot`,
      NOTIFICATION_RETRY_ATTEMPTS: "2",
    });
    await db().notificationDelivery.deleteMany();
    receiver.answer = (req) =>
      req.url === "/gotify/message"
        ? { status: 401, body: { error: "Unauthorized", errorDescription: "token gotify-secret-2 unknown" } }
        : {};
    const result = await notify(message);
    expect(result.status).toBe("partial");
    expect(result.deliveries).toEqual([
      { channel: "ntfy", status: "sent", attempts: 1, error: null },
      { channel: "gotify", status: "failed", attempts: 1, error: expect.stringContaining("HTTP 401") },
      { channel: "astrbot", status: "sent", attempts: 1, error: null },
    ]);
    expect(result.deliveries[1]!.error).not.toContain("gotify-secret-2");
    const row = await db().notificationDelivery.findFirst({ where: { channel: "gotify" } });
    expect(row!.error).not.toContain("gotify-secret-2");
    expect(receiver.requests.map((r) => r.url).sort()).toEqual(["/astrbot", "/gotify/message", "/ntfy-topic"]);

    configure({
      NTFY_URL: `${receiver.baseUrl}/ntfy-topic`,
      ASTRBOT_URL: `${receiver.baseUrl}/astrbot`,
      NOTIFICATION_REPORT_CHANNELS: "ntfy",
    });
    const routed = await notify({ ...message, title: "routed" });
    expect(routed.deliveries.map((d) => d.channel)).toEqual(["ntfy"]);
  });
});
