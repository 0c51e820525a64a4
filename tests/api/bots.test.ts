import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ZBotSelfTest, ZBotStatus } from "@/lib/bots/schemas";
import {
  PLATFORM,
  dingtalkMessage,
  dingtalkRequest,
  feishuMessageEvent,
  feishuRequest,
  startFakePlatforms,
  telegramRequest,
  telegramUpdate,
  wecomEncrypted,
  wecomEnvelope,
  wecomQuery,
  wecomTextXml,
  wecomDecrypt,
  type FakePlatforms,
} from "@/tests/kits/fake-platforms";
import { wecomSignature } from "@/lib/bots/signatures";
import { SCRIPTED_MODEL_ID, startScriptedModel } from "@/tests/kits/scripted-model";
import type { ReceivedRequest } from "@/tests/kits/notify-receiver";
import { startTestServer, type TestServer } from "../setup/api-server";
import { openServerDatabase } from "../setup/server-database";

// The two-way chat bots against local fake platforms built from each platform's documented payloads: a command in
// (signed, encrypted as the platform does it), the reply out (with the token the fake issued), bad signatures and
// unknown chats refused, the per-chat rate limit, and an analysis answered after a kill -9 and a restart.

let platforms: FakePlatforms;
let server: TestServer;
let env: Record<string, string>;

beforeAll(async () => {
  platforms = await startFakePlatforms();
  env = {
    ...platforms.env,
    MARKET_DATA_SOURCES: "sample",
    PUBLIC_BASE_URL: "https://dsa.test",
    BOT_ALLOWLIST: "telegram:111, telegram:-100500, feishu:oc_allowed, dingtalk:cid_allowed, wecom:zhangsan",
    BOT_RATE_LIMIT_PER_MINUTE: "3",
  };
  server = await startTestServer(env);
});
afterAll(async () => {
  await server?.stop();
  await platforms?.close();
});

const url = (path: string) => `${server.baseUrl}${path}`;

async function until<T>(read: () => T | undefined | Promise<T | undefined>, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until no bot task is pending or running, so every reply that will be sent has been. */
async function settled(): Promise<void> {
  await until(async () => {
    const list = (await (await fetch(url("/api/v1/analysis/tasks?limit=100"))).json()) as {
      tasks: { task_kind?: string | null; status: string }[];
    };
    return list.tasks.some((t) => t.task_kind === "bot" && (t.status === "pending" || t.status === "processing"))
      ? undefined
      : true;
  }, "bot tasks to finish");
}

const toChat = (chatId: number) => (r: ReceivedRequest) =>
  r.url.endsWith("/sendMessage") && (r.json as { chat_id?: number }).chat_id === chatId;

describe("Telegram (webhook)", () => {
  it("answers a command in the chat it came from, and refuses a wrong secret token", async () => {
    const refused = await fetch(url("/webhooks/telegram"), telegramRequest(telegramUpdate(111, "/help"), "wrong"));
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe("unauthorized");

    const update = telegramUpdate(111, "帮助");
    const res = await fetch(url("/webhooks/telegram"), telegramRequest(update));
    expect(res.status).toBe(200);
    const reply = await until(() => platforms.replies("telegram").find(toChat(111)), "the help reply");
    const body = reply.json as { text: string; reply_parameters: { message_id: number } };
    expect(body.reply_parameters.message_id).toBe(update.message.message_id);
    expect(body.text).toContain("/quote");
    expect(body.text).toContain("/watch");
    expect(body.text).toMatch(/[\u4e00-\u9fff]/);
    // Only the refused update's chat got nothing: one reply so far.
    expect(platforms.replies("telegram").filter(toChat(111))).toHaveLength(1);
  });

  it("refuses a chat not on the allowlist once, then stays silent", async () => {
    await fetch(url("/webhooks/telegram"), telegramRequest(telegramUpdate(222, "/quote 600519")));
    const refusal = await until(() => platforms.replies("telegram").find(toChat(222)), "the refusal");
    expect((refusal.json as { text: string }).text).toContain("telegram:222");
    const again = await fetch(url("/webhooks/telegram"), telegramRequest(telegramUpdate(222, "/help")));
    expect(again.status).toBe(200);
    await settled();
    expect(platforms.replies("telegram").filter(toChat(222))).toHaveLength(1);
  });

  it("limits each chat to BOT_RATE_LIMIT_PER_MINUTE commands, saying so once", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await fetch(
        url("/webhooks/telegram"),
        telegramRequest(telegramUpdate(-100500, "/help", { userId: 7, language: "en" })),
      );
      expect(res.status).toBe(200);
    }
    await settled();
    const texts = platforms
      .replies("telegram")
      .filter(toChat(-100500))
      .map((r) => (r.json as { text: string }).text);
    expect(texts).toHaveLength(4);
    expect(texts.filter((t) => t.includes("Commands"))).toHaveLength(3);
    expect(texts.filter((t) => t.includes("at most 3 per minute"))).toHaveLength(1);
  });
});

describe("the watchlist by chat", () => {
  it("adds a stock with 加自选 and lists it", async () => {
    await fetch(url("/webhooks/telegram"), telegramRequest(telegramUpdate(111, "加自选 000001")));
    const reply = await until(
      () =>
        platforms
          .replies("telegram")
          .filter(toChat(111))
          .find((r) => (r.json as { text: string }).text.includes("000001")),
      "the watchlist reply",
    );
    expect((reply.json as { text: string }).text).toMatch(/已加入 000001[\s\S]*自选股（\d+）/);
    const list = (await (await fetch(url("/api/v1/stocks/watchlist"))).json()) as { stock_codes: string[] };
    expect(list.stock_codes).toContain("000001");
  });
});

describe("Feishu (event subscription, encrypted)", () => {
  it("answers the URL verification challenge and refuses a wrong verification token", async () => {
    const challenge = {
      challenge: "ajls384kdjx98XX",
      token: PLATFORM.feishuVerificationToken,
      type: "url_verification",
    };
    const res = await fetch(url("/webhooks/feishu"), feishuRequest(challenge, { sign: false }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ challenge: "ajls384kdjx98XX" });
    const wrong = await fetch(url("/webhooks/feishu"), feishuRequest({ ...challenge, token: "nope" }, { sign: false }));
    expect(wrong.status).toBe(401);
  });

  it("refuses a bad signature, another encrypt key and a wrong event token", async () => {
    const event = feishuMessageEvent("oc_allowed", "ou_1", "/help");
    const signed = feishuRequest(event);
    const tampered = { ...signed, body: String(signed.body).replace(/"}$/, ' "}') };
    expect((await fetch(url("/webhooks/feishu"), tampered)).status).toBe(401);
    const unsigned = feishuRequest(event, { sign: false });
    expect((await fetch(url("/webhooks/feishu"), unsigned)).status).toBe(401);
    const otherKey = feishuRequest(event, { key: "another-key" });
    expect((await fetch(url("/webhooks/feishu"), otherKey)).status).toBe(401);
    const wrongToken = feishuRequest(feishuMessageEvent("oc_allowed", "ou_1", "/help", "nope"));
    expect((await fetch(url("/webhooks/feishu"), wrongToken)).status).toBe(401);
    await settled();
    expect(platforms.replies("feishu")).toHaveLength(0);
  });

  it("replies to the message with the tenant token it was issued, once for a delivery sent twice", async () => {
    const event = feishuMessageEvent("oc_allowed", "ou_1", "行情 600519");
    for (let i = 0; i < 2; i++) {
      const res = await fetch(url("/webhooks/feishu"), feishuRequest(event));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
    }
    const reply = await until(
      () => platforms.replies("feishu").find((r) => r.url.includes(event.event.message.message_id)),
      "the Feishu reply",
    );
    expect(reply.headers.authorization).toBe(`Bearer ${PLATFORM.feishuTenantToken}`);
    const body = reply.json as { msg_type: string; content: string };
    expect(body.msg_type).toBe("interactive");
    const card = JSON.parse(body.content) as { elements: { content: string }[] };
    expect(card.elements[0]!.content).toContain("600519");
    expect(card.elements[0]!.content).toContain("现价");
    await settled();
    expect(platforms.replies("feishu").filter((r) => r.url.includes(event.event.message.message_id))).toHaveLength(1);
  });
});

describe("DingTalk (outgoing robot)", () => {
  it("refuses a bad sign and a stale timestamp", async () => {
    const message = dingtalkMessage("cid_allowed", "staff1", "/help", platforms.receiver.baseUrl);
    const bad = dingtalkRequest(message, String(Date.now()), "another-secret");
    expect((await fetch(url("/webhooks/dingtalk"), bad)).status).toBe(401);
    const stale = dingtalkRequest(message, String(Date.now() - 2 * 3600_000));
    expect((await fetch(url("/webhooks/dingtalk"), stale)).status).toBe(401);
  });

  it("replies in Markdown to the session webhook, mentioning the sender", async () => {
    const message = dingtalkMessage("cid_allowed", "staff1", "quote 600519", platforms.receiver.baseUrl);
    const res = await fetch(url("/webhooks/dingtalk"), dingtalkRequest(message));
    expect(res.status).toBe(200);
    const reply = await until(
      () => platforms.replies("dingtalk").find((r) => r.url.endsWith(message.sessionWebhook.split("/dingtalk")[1]!)),
      "the DingTalk reply",
    );
    const body = reply.json as { msgtype: string; markdown: { text: string }; at: { atUserIds: string[] } };
    expect(body.msgtype).toBe("markdown");
    expect(body.markdown.text).toContain("600519");
    expect(body.markdown.text).toContain("price");
    expect(body.at.atUserIds).toEqual(["staff1"]);
  });
});

describe("WeCom (encrypted callback)", () => {
  it("answers the URL check with the decrypted echostr and refuses a bad signature", async () => {
    const echostr = wecomEncrypted("echo-4711");
    const query = wecomQuery(echostr);
    query.set("echostr", echostr);
    const res = await fetch(url(`/webhooks/wecom?${query}`));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("echo-4711");
    query.set("msg_signature", "0".repeat(40));
    expect((await fetch(url(`/webhooks/wecom?${query}`))).status).toBe(401);
  });

  it("decrypts a message, replies through the message API, and refuses an unknown user once", async () => {
    const post = (user: string, text: string, token?: string) => {
      const encrypted = wecomEncrypted(wecomTextXml(user, text));
      return fetch(url(`/webhooks/wecom?${wecomQuery(encrypted, token)}`), {
        method: "POST",
        headers: { "content-type": "text/xml" },
        body: wecomEnvelope(encrypted),
      });
    };
    expect((await post("zhangsan", "自选", "another-token")).status).toBe(401);
    const res = await post("zhangsan", "自选");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    const reply = await until(
      () => platforms.replies("wecom").find((r) => (r.json as { touser?: string }).touser === "zhangsan"),
      "the WeCom reply",
    );
    expect(new URL(reply.url, "http://x").searchParams.get("access_token")).toBe(PLATFORM.wecomAccessToken);
    const body = reply.json as { msgtype: string; agentid: number; markdown: { content: string } };
    expect(body.agentid).toBe(Number(PLATFORM.wecomAgentId));
    expect(body.markdown.content).toMatch(/自选股/);

    await post("lisi", "自选");
    await post("lisi", "帮助");
    await settled();
    const toLisi = platforms.replies("wecom").filter((r) => (r.json as { touser?: string }).touser === "lisi");
    expect(toLisi).toHaveLength(1);
    expect((toLisi[0]!.json as { markdown: { content: string } }).markdown.content).toContain("BOT_ALLOWLIST");
  });
});

describe("an analysis acknowledged at once where the webhook's answer can carry a message", () => {
  it("WeCom: an encrypted, signed passive reply, then the report and its image by the message API", async () => {
    const encrypted = wecomEncrypted(wecomTextXml("zhangsan", "分析 000001"));
    const res = await fetch(url(`/webhooks/wecom?${wecomQuery(encrypted)}`), {
      method: "POST",
      headers: { "content-type": "text/xml" },
      body: wecomEnvelope(encrypted),
    });
    expect(res.status).toBe(200);
    const xml = await res.text();
    const field = (name: string) => new RegExp(`<${name}>(?:<!\\[CDATA\\[)?([^<\\]]*)`).exec(xml)![1]!;
    const [sealed, signature, timestamp, nonce] = ["Encrypt", "MsgSignature", "TimeStamp", "Nonce"].map(field);
    expect(signature).toBe(wecomSignature(PLATFORM.wecomToken, timestamp!, nonce!, sealed!));
    const inner = wecomDecrypt(PLATFORM.wecomAesKey, sealed!, PLATFORM.wecomCorpId);
    expect(inner).toContain("<ToUserName><![CDATA[zhangsan]]></ToUserName>");
    expect(inner).toContain("正在分析 000001");

    const report = await until(
      () =>
        platforms
          .replies("wecom")
          .find((r) =>
            /000001[\s\S]*\/history\//.test((r.json as { markdown?: { content: string } }).markdown?.content ?? ""),
          ),
      "the WeCom report",
      60_000,
    );
    expect((report.json as { markdown: { content: string } }).markdown.content).toContain("https://dsa.test/history/");
    const image = await until(
      () => platforms.replies("wecom").find((r) => (r.json as { msgtype?: string }).msgtype === "image"),
      "the WeCom image",
      60_000,
    );
    expect(image.json).toMatchObject({ touser: "zhangsan", image: { media_id: "media-1" } });
    const upload = platforms.receiver.requests.find((r) => r.url.startsWith("/cgi-bin/media/upload"))!;
    expect(upload.raw.includes(Buffer.from("IHDR"))).toBe(true);
  });

  it("DingTalk: the acknowledgement in the webhook's answer, then the report to the session webhook", async () => {
    const message = dingtalkMessage("cid_allowed", "staff1", "analyze 000858", platforms.receiver.baseUrl);
    const res = await fetch(url("/webhooks/dingtalk"), dingtalkRequest(message));
    expect(await res.json()).toEqual({
      msgtype: "text",
      text: { content: "On it: analysing 000858. The report follows when it is done." },
    });
    const reply = await until(
      () => platforms.replies("dingtalk").find((r) => r.url.endsWith(message.sessionWebhook.split("/dingtalk")[1]!)),
      "the DingTalk report",
      60_000,
    );
    expect((reply.json as { markdown: { text: string } }).markdown.text).toContain("000858");
  });
});

describe("status and self-test", () => {
  it("shows each bot and checks it against the platform", async () => {
    const status = ZBotStatus.parse(await (await fetch(url("/api/v1/bots"))).json());
    const telegram = status.platforms.find((p) => p.platform === "telegram")!;
    expect(telegram).toMatchObject({ enabled: true, mode: "webhook", missing: [], allowlisted: 2 });
    expect(telegram.refused_24h).toBe(1);
    expect(status.rate_limit_per_minute).toBe(3);
    for (const platform of ["telegram", "feishu", "wecom", "dingtalk"]) {
      const res = await fetch(url(`/api/v1/bots/${platform}/self-test`), { method: "POST" });
      const test = ZBotSelfTest.parse(await res.json());
      const api = test.checks.find((c) => c.name === "platform_api")!;
      expect(api.ok, `${platform}: ${api.detail}`).toBe(true);
    }
    const telegramTest = ZBotSelfTest.parse(
      await (await fetch(url("/api/v1/bots/telegram/self-test"), { method: "POST" })).json(),
    );
    expect(telegramTest.checks.find((c) => c.name === "platform_api")!.detail).toContain("@dsa_test_bot");
    // No secret of any platform in what the page shows.
    const shown = JSON.stringify(status) + JSON.stringify(telegramTest);
    for (const secret of [
      PLATFORM.telegramToken,
      PLATFORM.telegramSecret,
      PLATFORM.feishuAppSecret,
      PLATFORM.wecomCorpSecret,
    ])
      expect(shown).not.toContain(secret);
  });

  it("answers 404 while a bot is switched off (the shared server has none on)", async () => {
    const base = inject("baseUrl");
    const message = dingtalkMessage("cid_allowed", "staff1", "/help", "http://127.0.0.1:9");
    const res = await fetch(`${base}/webhooks/dingtalk`, dingtalkRequest(message));
    expect(res.status).toBe(404);
  });
});

describe("Telegram (long polling)", () => {
  it("takes updates by getUpdates, confirms them by the offset, and answers each once", async () => {
    const polling = await startTestServer({
      ...env,
      TELEGRAM_BOT_MODE: "polling",
      BOT_ALLOWLIST: "telegram:333",
    });
    try {
      const first = telegramUpdate(333, "/help", { language: "en" });
      const second = telegramUpdate(333, "quote 600519", { language: "en" });
      platforms.pendingUpdates.push(first, second);
      const replies = await until(() => {
        const sent = platforms.replies("telegram").filter(toChat(333));
        return sent.length >= 2 ? sent : undefined;
      }, "the polled replies");
      expect((replies[0]!.json as { text: string }).text).toContain("Commands");
      expect((replies[1]!.json as { text: string }).text).toContain("600519");
      // The next poll asks past both: Telegram drops them; the bot never answers them again.
      const polls = await until(() => {
        const asked = platforms.receiver.requests.filter((r) => r.url.endsWith("/getUpdates"));
        const last = asked.at(-1)?.json as { offset?: number } | undefined;
        return last?.offset === second.update_id + 1 ? asked : undefined;
      }, "a poll past both updates");
      expect(polls.length).toBeGreaterThan(1);
      expect(platforms.replies("telegram").filter(toChat(333))).toHaveLength(2);
    } finally {
      platforms.pendingUpdates = [];
      await polling.stop();
    }
  });
});

describe("a free question", () => {
  it("goes to the agent chat when a model is configured, in the chat's own session", async () => {
    const model = await startScriptedModel();
    const withModel = await startTestServer({
      ...env,
      TELEGRAM_BOT_MODE: "webhook",
      BOT_ALLOWLIST: "telegram:444",
      OPENAI_API_KEY: "sk-scripted-0123456789",
      OPENAI_BASE_URL: model.url,
      OPENAI_MODEL: SCRIPTED_MODEL_ID,
    });
    try {
      model.queue({ text: "贵州茅台近期走势平稳，留意成交量变化。" });
      const update = telegramUpdate(444, "茅台最近怎么样？");
      const res = await fetch(`${withModel.baseUrl}/webhooks/telegram`, telegramRequest(update));
      expect(res.status).toBe(200);
      const reply = await until(() => platforms.replies("telegram").find(toChat(444)), "the model's answer");
      expect((reply.json as { text: string }).text).toContain("贵州茅台近期走势平稳");
      const question = model.requests.find((r) => r.path.endsWith("/chat/completions"));
      expect(question?.messagesText).toContain("茅台最近怎么样");
      const sessions = (await (await fetch(`${withModel.baseUrl}/api/v1/agent/chat/sessions`)).json()) as {
        sessions: { session_id: string }[];
      };
      expect(sessions.sessions.map((x) => x.session_id)).toContain("bot.telegram.444");
    } finally {
      await withModel.stop();
      await model.close();
    }
  });
});

describe("an analysis asked by chat", () => {
  it("is answered with the report and its share image, after a kill -9 and a restart in between", async () => {
    // Telegram takes the analysis's reply but never answers: the server dies while sending it.
    platforms.hold = (r) => toChat(111)(r) && String((r.json as { text?: string }).text).includes("600519");
    const update = telegramUpdate(111, "分析 600519");
    expect((await fetch(url("/webhooks/telegram"), telegramRequest(update))).status).toBe(200);
    const held = await until(
      () => platforms.replies("telegram").find((r) => r.url.endsWith("/sendMessage") && platforms.hold!(r)),
      "the analysis reply to be sent",
      60_000,
    );
    await server.kill();
    platforms.hold = null;
    const database = await openServerDatabase(server);
    try {
      // What the crashed holder's lease would do in 20 s: run out.
      await database.run(
        "UPDATE analysis_task SET lease_until = ? WHERE kind = 'bot' AND status = 'processing'",
        "2000-01-01T00:00:00.000+00:00",
      );
    } finally {
      await database.close();
    }
    const sentBefore = platforms.replies("telegram").length;
    server = await startTestServer(env, { dataDir: server.dataDir });

    const resent = await until(
      () =>
        platforms
          .replies("telegram")
          .slice(sentBefore)
          .find((r) => r.url.endsWith("/sendMessage")),
      "the reply after the restart",
      60_000,
    );
    // The answer composed before the crash, not a second analysis.
    expect(resent.json).toEqual(held.json);
    const text = (resent.json as { text: string }).text;
    expect(text).toMatch(/贵州茅台|600519/);
    expect(text).toContain("https://dsa.test/history/");
    const photo = await until(
      () =>
        platforms
          .replies("telegram")
          .slice(sentBefore)
          .find((r) => r.url.endsWith("/sendPhoto")),
      "the share image",
      60_000,
    );
    expect(photo.headers["content-type"]).toMatch(/^multipart\/form-data/);
    // The PNG signature (its first byte is not UTF-8, so the text shows the rest) and its header chunk.
    expect(photo.text).toContain("PNG\r\n\x1a\n");
    expect(photo.text).toContain("IHDR");
    expect(photo.text).toContain('name="chat_id"');

    const after = await openServerDatabase(server);
    try {
      const reports = await after.all<{ n: number }>(
        "SELECT count(*) AS n FROM analysis_history WHERE stock_code = '600519'",
      );
      expect(Number(reports[0]!.n)).toBe(1);
      // The row is marked answered once the image's send has returned: wait for that write, not just the request.
      const rows = await until(async () => {
        const found = await after.all<{ status: string; answered_at: unknown; record_id: number | null }>(
          "SELECT status, answered_at, record_id FROM bot_message WHERE message_id = ?",
          `111:${update.message.message_id}`,
        );
        return found[0]?.status === "answered" ? found : undefined;
      }, "the message marked answered");
      expect(rows).toHaveLength(1);
      expect(rows[0]!.status).toBe("answered");
      expect(rows[0]!.answered_at).not.toBeNull();
      expect(rows[0]!.record_id).not.toBeNull();
    } finally {
      await after.close();
    }
  });
});
