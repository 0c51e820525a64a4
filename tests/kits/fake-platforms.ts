import { randomBytes } from "node:crypto";
import {
  dingtalkSign,
  feishuEncrypt,
  feishuSignature,
  wecomDecrypt,
  wecomEncrypt,
  wecomSignature,
} from "@/lib/bots/signatures";
import { startReceiver, type Answer, type ReceivedRequest, type Receiver } from "./notify-receiver";

// Test support: one local server answering as Telegram's Bot API, Feishu's open platform, WeCom's API and DingTalk's
// session webhooks, from their documented payloads; and the platforms' side of each webhook (signed, encrypted).
// It checks what the bots send: the tenant token and access token it issued, the chat the reply goes to.

export const PLATFORM = {
  telegramToken: "123456:test-bot-token",
  telegramSecret: "tg-secret-token-1",
  feishuAppId: "cli_test",
  feishuAppSecret: "feishu-app-secret",
  feishuVerificationToken: "feishu-verify-token",
  feishuEncryptKey: "feishu-encrypt-key",
  feishuTenantToken: "t-issued-tenant-token",
  dingtalkSecret: "dingtalk-app-secret",
  wecomCorpId: "ww-test-corp",
  wecomCorpSecret: "wecom-corp-secret",
  wecomAgentId: "1000002",
  wecomToken: "wecomToken1",
  wecomAesKey: "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C",
  wecomAccessToken: "wecom-issued-access-token",
};

export interface FakePlatforms {
  receiver: Receiver;
  /** The settings that point every bot at this server. */
  env: Record<string, string>;
  /** Replies the bots sent, by platform. */
  replies(platform: "telegram" | "feishu" | "dingtalk" | "wecom"): ReceivedRequest[];
  /** Holds the answer to matching requests (a slow platform) until released. */
  hold: ((request: ReceivedRequest) => boolean) | null;
  /** Updates getUpdates hands out (long polling): those at or past the offset asked for, as Telegram does. */
  pendingUpdates: { update_id: number }[];
  /** What getWebhookInfo says Telegram posts to (setWebhook's URL); empty: no webhook set. */
  telegramWebhookUrl: string;
  close(): Promise<void>;
}

function answerAs(request: ReceivedRequest, platforms: FakePlatforms): Answer {
  const url = request.url;
  if (platforms.hold?.(request)) return { status: 200, delayMs: 600_000 };
  if (url.startsWith(`/bot${PLATFORM.telegramToken}/`)) {
    const method = url.split("/")[2];
    if (method === "getMe") return { body: { ok: true, result: { id: 1, is_bot: true, username: "dsa_test_bot" } } };
    if (method === "getWebhookInfo")
      return { body: { ok: true, result: { url: platforms.telegramWebhookUrl, pending_update_count: 0 } } };
    if (method === "getUpdates") {
      const offset = Number((request.json as { offset?: number }).offset ?? 0);
      const due = platforms.pendingUpdates.filter((u) => u.update_id >= offset);
      // A long poll with nothing new waits (shortened here) and answers an empty list.
      return due.length > 0 ? { body: { ok: true, result: due } } : { delayMs: 300, body: { ok: true, result: [] } };
    }
    return { body: { ok: true, result: { message_id: 99 } } };
  }
  if (url.startsWith("/bot")) return { status: 401, body: { ok: false, description: "Unauthorized" } };
  if (url === "/open-apis/auth/v3/tenant_access_token/internal") {
    const body = request.json as { app_id?: string; app_secret?: string };
    return body.app_id === PLATFORM.feishuAppId && body.app_secret === PLATFORM.feishuAppSecret
      ? { body: { code: 0, msg: "ok", tenant_access_token: PLATFORM.feishuTenantToken, expire: 7200 } }
      : { body: { code: 10014, msg: "app secret invalid" } };
  }
  if (url.startsWith("/open-apis/")) {
    if (request.headers.authorization !== `Bearer ${PLATFORM.feishuTenantToken}`)
      return { body: { code: 99991663, msg: "tenant access token invalid" } };
    if (url === "/open-apis/im/v1/images") return { body: { code: 0, data: { image_key: "img_v2_test" } } };
    return { body: { code: 0, msg: "success", data: { message_id: "om_reply" } } };
  }
  if (url.startsWith("/cgi-bin/gettoken")) {
    const query = new URL(url, "http://x").searchParams;
    return query.get("corpid") === PLATFORM.wecomCorpId && query.get("corpsecret") === PLATFORM.wecomCorpSecret
      ? { body: { errcode: 0, errmsg: "ok", access_token: PLATFORM.wecomAccessToken, expires_in: 7200 } }
      : { body: { errcode: 40001, errmsg: "invalid credential" } };
  }
  if (url.startsWith("/cgi-bin/")) {
    const query = new URL(url, "http://x").searchParams;
    if (query.get("access_token") !== PLATFORM.wecomAccessToken) return { body: { errcode: 42001, errmsg: "expired" } };
    if (url.startsWith("/cgi-bin/media/upload")) return { body: { errcode: 0, type: "image", media_id: "media-1" } };
    return { body: { errcode: 0, errmsg: "ok" } };
  }
  if (url.startsWith("/dingtalk/session")) return { body: { errcode: 0, errmsg: "ok" } };
  return { status: 404, body: { error: "unknown path" } };
}

const PREFIX = {
  telegram: "/bot",
  feishu: "/open-apis/im/v1/messages/",
  dingtalk: "/dingtalk/session",
  wecom: "/cgi-bin/message/send",
} as const;

export async function startFakePlatforms(): Promise<FakePlatforms> {
  const receiver = await startReceiver();
  const platforms: FakePlatforms = {
    receiver,
    hold: null,
    pendingUpdates: [],
    telegramWebhookUrl: "",
    env: {
      OUTBOUND_ALLOW_PRIVATE: "true",
      TELEGRAM_API_BASE_URL: receiver.baseUrl,
      TELEGRAM_BOT_TOKEN: PLATFORM.telegramToken,
      TELEGRAM_BOT_MODE: "webhook",
      TELEGRAM_WEBHOOK_SECRET: PLATFORM.telegramSecret,
      FEISHU_BOT_ENABLED: "true",
      FEISHU_APP_ID: PLATFORM.feishuAppId,
      FEISHU_APP_SECRET: PLATFORM.feishuAppSecret,
      FEISHU_VERIFICATION_TOKEN: PLATFORM.feishuVerificationToken,
      FEISHU_ENCRYPT_KEY: PLATFORM.feishuEncryptKey,
      FEISHU_API_BASE_URL: receiver.baseUrl,
      DINGTALK_BOT_ENABLED: "true",
      DINGTALK_APP_SECRET: PLATFORM.dingtalkSecret,
      WECOM_BOT_ENABLED: "true",
      WECOM_CORP_ID: PLATFORM.wecomCorpId,
      WECOM_CORP_SECRET: PLATFORM.wecomCorpSecret,
      WECOM_AGENT_ID: PLATFORM.wecomAgentId,
      WECOM_TOKEN: PLATFORM.wecomToken,
      WECOM_ENCODING_AES_KEY: PLATFORM.wecomAesKey,
      WECOM_API_BASE_URL: receiver.baseUrl,
    },
    replies: (platform) =>
      receiver.requests.filter(
        (r) =>
          r.url.startsWith(PREFIX[platform]) &&
          (platform !== "telegram" || /\/(sendMessage|sendPhoto)$/.test(r.url)) &&
          (platform !== "feishu" || r.url.endsWith("/reply")),
      ),
    close: () => receiver.close(),
  };
  receiver.answer = (request) => answerAs(request, platforms);
  return platforms;
}

// ---- the platforms' side of each webhook

let sequence = 1000;
export const nextId = () => ++sequence;

export function telegramUpdate(chatId: number, text: string, options: { userId?: number; language?: string } = {}) {
  const id = nextId();
  return {
    update_id: id,
    message: {
      message_id: id,
      from: {
        id: options.userId ?? chatId,
        is_bot: false,
        first_name: "T",
        language_code: options.language ?? "zh-hans",
      },
      chat: { id: chatId, type: chatId < 0 ? "supergroup" : "private" },
      date: Math.floor(Date.now() / 1000),
      text,
    },
  };
}

export function telegramRequest(update: unknown, secret = PLATFORM.telegramSecret): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": secret },
    body: JSON.stringify(update),
  };
}

export function feishuMessageEvent(
  chatId: string,
  openId: string,
  text: string,
  token = PLATFORM.feishuVerificationToken,
) {
  const id = nextId();
  return {
    schema: "2.0",
    header: {
      event_id: `ev_${id}`,
      event_type: "im.message.receive_v1",
      create_time: String(Date.now()),
      token,
      app_id: PLATFORM.feishuAppId,
      tenant_key: "tenant",
    },
    event: {
      sender: { sender_id: { open_id: openId, user_id: "u1", union_id: "on_1" }, sender_type: "user" },
      message: {
        message_id: `om_${id}`,
        chat_id: chatId,
        chat_type: "group",
        message_type: "text",
        content: JSON.stringify({ text: `@_user_1 ${text}` }),
        mentions: [{ key: "@_user_1", id: { open_id: "ou_bot" }, name: "DSA" }],
      },
    },
  };
}

/** Encrypted with the encrypt key and signed over the exact body, as Feishu sends events. */
export function feishuRequest(payload: unknown, options: { sign?: boolean; key?: string } = {}): RequestInit {
  const key = options.key ?? PLATFORM.feishuEncryptKey;
  const body = JSON.stringify({ encrypt: feishuEncrypt(key, JSON.stringify(payload)) });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(8).toString("hex");
  return {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(options.sign === false
        ? {}
        : {
            "x-lark-request-timestamp": timestamp,
            "x-lark-request-nonce": nonce,
            "x-lark-signature": feishuSignature(timestamp, nonce, PLATFORM.feishuEncryptKey, body),
          }),
    },
    body,
  };
}

export function dingtalkMessage(conversationId: string, staffId: string, text: string, webhookBase: string) {
  const id = nextId();
  return {
    msgtype: "text",
    text: { content: ` ${text}` },
    msgId: `msg${id}`,
    createAt: Date.now(),
    conversationType: "2",
    conversationId,
    conversationTitle: "DSA group",
    senderId: `$:LWCP_v1:$${staffId}`,
    senderNick: "Trader",
    senderStaffId: staffId,
    chatbotUserId: "$:LWCP_v1:$bot",
    sessionWebhook: `${webhookBase}/dingtalk/session?session=${id}`,
    sessionWebhookExpiredTime: Date.now() + 90 * 60_000,
    isAdmin: false,
  };
}

export function dingtalkRequest(payload: unknown, timestamp = String(Date.now()), secret = PLATFORM.dingtalkSecret) {
  return {
    method: "POST",
    headers: { "content-type": "application/json", timestamp, sign: dingtalkSign(timestamp, secret) },
    body: JSON.stringify(payload),
  };
}

/** The signed query of a WeCom callback for this encrypted text. */
export function wecomQuery(encrypted: string, token = PLATFORM.wecomToken): URLSearchParams {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = String(nextId());
  return new URLSearchParams({
    msg_signature: wecomSignature(token, timestamp, nonce, encrypted),
    timestamp,
    nonce,
  });
}

export function wecomEncrypted(xml: string): string {
  return wecomEncrypt(PLATFORM.wecomAesKey, xml, PLATFORM.wecomCorpId);
}

export function wecomTextXml(user: string, text: string): string {
  const id = nextId();
  return (
    `<xml><ToUserName><![CDATA[${PLATFORM.wecomCorpId}]]></ToUserName><FromUserName><![CDATA[${user}]]></FromUserName>` +
    `<CreateTime>${Math.floor(Date.now() / 1000)}</CreateTime><MsgType><![CDATA[text]]></MsgType>` +
    `<Content><![CDATA[${text}]]></Content><MsgId>${id}</MsgId><AgentID>${PLATFORM.wecomAgentId}</AgentID></xml>`
  );
}

export function wecomEnvelope(encrypted: string): string {
  return `<xml><ToUserName><![CDATA[${PLATFORM.wecomCorpId}]]></ToUserName><Encrypt><![CDATA[${encrypted}]]></Encrypt><AgentID><![CDATA[${PLATFORM.wecomAgentId}]]></AgentID></xml>`;
}

export { wecomDecrypt };
