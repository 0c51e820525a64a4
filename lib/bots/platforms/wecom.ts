import { FormData } from "undici";
import { XMLParser } from "fast-xml-parser";
import { ApiError } from "@/lib/errors/api-error";
import { DeliveryError } from "@/lib/notify/http";
import { fitMessage, utf8Bytes } from "@/lib/notify/text";
import { getSettings } from "@/lib/settings/settings";
import type { TSettings } from "@/lib/settings/settings-schema";
import { CachedToken, callPlatform } from "../http";
import { analysisAck } from "../ack";
import { acceptMessage } from "../inbox";
import { sameText, wecomDecrypt, wecomEncrypt, wecomSignature } from "../signatures";
import type { InboundMessage, PlatformAnswer, PlatformClient, WebhookRequest } from "../types";
import { badSignature, botOff, missingOf, notConfigured } from "./common";

// WeCom (企业微信) self-built app callback: the URL check (GET with an encrypted echostr) and messages (POST XML
// whose Encrypt element is AES-256-CBC), both under msg_signature (SHA-1 with the callback Token). Replies go out by
// the app message API with the corp's access token; an analysis's image is uploaded as media and sent after it.

// WeCom's markdown message takes 2048 bytes.
const MAX_BYTES = 2048;

const xml = new XMLParser({ parseTagValue: false, processEntities: false, ignoreDeclaration: true });

function parseXml(text: string): Record<string, unknown> {
  try {
    const root = (xml.parse(text) as { xml?: unknown }).xml;
    if (root !== null && typeof root === "object") return root as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw ApiError.of("invalid_request", "The WeCom request body is not the callback's XML");
}

function wecomSettings(): Readonly<TSettings> {
  const settings = getSettings();
  if (!settings.WECOM_BOT_ENABLED) throw botOff("WeCom", "WECOM_BOT_ENABLED=false");
  const missing = missingOf({
    WECOM_CORP_ID: settings.WECOM_CORP_ID,
    WECOM_CORP_SECRET: settings.WECOM_CORP_SECRET,
    WECOM_AGENT_ID: settings.WECOM_AGENT_ID,
    WECOM_TOKEN: settings.WECOM_TOKEN,
    WECOM_ENCODING_AES_KEY: settings.WECOM_ENCODING_AES_KEY,
  });
  if (missing.length > 0) throw notConfigured("WeCom", missing);
  return settings;
}

/** Checks msg_signature over the encrypted text, then decrypts it for this corp. */
function openEnvelope(settings: Readonly<TSettings>, query: URLSearchParams, encrypted: string): string {
  const expected = wecomSignature(
    settings.WECOM_TOKEN,
    query.get("timestamp") ?? "",
    query.get("nonce") ?? "",
    encrypted,
  );
  if (!sameText(query.get("msg_signature") ?? "", expected)) throw badSignature("WeCom");
  try {
    return wecomDecrypt(settings.WECOM_ENCODING_AES_KEY, encrypted, settings.WECOM_CORP_ID);
  } catch {
    throw ApiError.of("unauthorized", "The WeCom message could not be decrypted for this corp");
  }
}

// GET /webhooks/wecom – the URL check: the decrypted echostr, as plain text
export function verifyWecomUrl(request: WebhookRequest): PlatformAnswer {
  const settings = wecomSettings();
  return { kind: "text", body: openEnvelope(settings, request.query, request.query.get("echostr") ?? "") };
}

export function inboundFromXml(message: Record<string, unknown>): InboundMessage | null {
  if (message.MsgType !== "text" || typeof message.Content !== "string" || typeof message.FromUserName !== "string")
    return null;
  const user = message.FromUserName;
  return {
    platform: "wecom",
    messageId: String(message.MsgId ?? `${user}:${String(message.CreateTime ?? "")}`),
    // An app's messages are one-to-one: the chat is the sender.
    chatId: user,
    userId: user,
    text: message.Content,
    replyTo: { touser: user },
  };
}

const cdata = (text: string) => `<![CDATA[${text.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;

/** A passive reply: the text message encrypted for this corp and signed like a callback, as WeCom expects it. */
export function wecomPassiveReply(
  settings: Pick<TSettings, "WECOM_TOKEN" | "WECOM_ENCODING_AES_KEY" | "WECOM_CORP_ID">,
  toUser: string,
  text: string,
  at: Date = new Date(),
): string {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const nonce = String(Math.floor(Math.random() * 1e9));
  const plain =
    `<xml><ToUserName>${cdata(toUser)}</ToUserName><FromUserName>${cdata(settings.WECOM_CORP_ID)}</FromUserName>` +
    `<CreateTime>${timestamp}</CreateTime><MsgType>${cdata("text")}</MsgType><Content>${cdata(text)}</Content></xml>`;
  const encrypted = wecomEncrypt(settings.WECOM_ENCODING_AES_KEY, plain, settings.WECOM_CORP_ID);
  const signature = wecomSignature(settings.WECOM_TOKEN, timestamp, nonce, encrypted);
  return (
    `<xml><Encrypt>${cdata(encrypted)}</Encrypt><MsgSignature>${cdata(signature)}</MsgSignature>` +
    `<TimeStamp>${timestamp}</TimeStamp><Nonce>${cdata(nonce)}</Nonce></xml>`
  );
}

// POST /webhooks/wecom – empty (the reply follows by the message API), or for an analysis an encrypted
// passive reply saying it is on it
export async function receiveWecomMessage(request: WebhookRequest): Promise<PlatformAnswer> {
  const settings = wecomSettings();
  const envelope = parseXml(request.body);
  if (typeof envelope.Encrypt !== "string") throw badSignature("WeCom");
  const inbound = inboundFromXml(parseXml(openEnvelope(settings, request.query, envelope.Encrypt)));
  if (!inbound) return { kind: "text", body: "" };
  const ack = analysisAck(inbound, await acceptMessage(inbound));
  return { kind: "text", body: ack ? wecomPassiveReply(settings, inbound.userId, ack) : "" };
}

function okOrThrow(answer: Record<string, unknown>): Record<string, unknown> {
  if (answer.errcode !== undefined && answer.errcode !== 0)
    throw new DeliveryError(
      `wecom answered errcode ${String(answer.errcode)}: ${String(answer.errmsg ?? "")}`.slice(0, 300),
      false,
    );
  return answer;
}

const accessToken = new CachedToken(async (signal) => {
  const settings = getSettings();
  const query = new URLSearchParams({ corpid: settings.WECOM_CORP_ID, corpsecret: settings.WECOM_CORP_SECRET });
  const answer = okOrThrow(
    await callPlatform(`${settings.WECOM_API_BASE_URL}/cgi-bin/gettoken?${query}`, { method: "GET" }, signal),
  );
  return { token: String(answer.access_token ?? ""), expiresInSec: Number(answer.expires_in ?? 0) };
});

export async function wecomToken(signal: AbortSignal): Promise<string> {
  const settings = getSettings();
  return accessToken.get(
    `${settings.WECOM_API_BASE_URL}|${settings.WECOM_CORP_ID}|${settings.WECOM_CORP_SECRET}`,
    signal,
  );
}

export function wecomClient(): PlatformClient {
  async function send(body: Record<string, unknown>, signal: AbortSignal) {
    const settings = getSettings();
    const token = await wecomToken(signal);
    okOrThrow(
      await callPlatform(
        `${settings.WECOM_API_BASE_URL}/cgi-bin/message/send?access_token=${encodeURIComponent(token)}`,
        { json: { agentid: Number(settings.WECOM_AGENT_ID), ...body } },
        signal,
      ),
    );
  }
  return {
    maxChars: MAX_BYTES,
    async sendText(target, markdown, signal) {
      const content = fitMessage({ head: "", body: markdown, tail: "" }, MAX_BYTES, utf8Bytes);
      await send({ touser: target.touser, msgtype: "markdown", markdown: { content } }, signal);
    },
    async sendImage(target, png, filename, signal) {
      const settings = getSettings();
      const token = await wecomToken(signal);
      const form = new FormData();
      form.set("media", new Blob([new Uint8Array(png)], { type: "image/png" }), filename);
      const uploaded = okOrThrow(
        await callPlatform(
          `${settings.WECOM_API_BASE_URL}/cgi-bin/media/upload?access_token=${encodeURIComponent(token)}&type=image`,
          { form },
          signal,
        ),
      );
      if (typeof uploaded.media_id !== "string") throw new DeliveryError("wecom answered no media_id", false);
      await send({ touser: target.touser, msgtype: "image", image: { media_id: uploaded.media_id } }, signal);
    },
  };
}
