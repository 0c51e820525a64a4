export const BOT_PLATFORMS = ["telegram", "feishu", "dingtalk", "wecom"] as const;
export type TBotPlatform = (typeof BOT_PLATFORMS)[number];

/** Where and how a reply goes, as the platform gave it (a chat id, a message to reply to, a session webhook…). */
export type ReplyTarget = Record<string, string | number | null>;

/** One message a platform delivered, checked (signature, decryption) and reduced to what a command needs. */
export interface InboundMessage {
  platform: TBotPlatform;
  /** The platform's id of the message (or event): a retried delivery carries the same one. */
  messageId: string;
  chatId: string;
  userId: string;
  text: string;
  replyTo: ReplyTarget;
  /** The sender's interface language when the platform says it (Telegram's language_code). */
  languageHint?: "zh" | "en" | null;
}

/** What a platform client sends: Markdown text, and for an analysis the report's share image. */
export interface PlatformClient {
  /** The most characters one text message may hold; longer answers are cut with a link to the rest. */
  maxChars: number;
  sendText(target: ReplyTarget, markdown: string, signal: AbortSignal): Promise<void>;
  /** Absent where the platform's reply path takes no uploaded image (DingTalk's session webhook). */
  sendImage?(target: ReplyTarget, png: Buffer, filename: string, signal: AbortSignal): Promise<void>;
}

/** What a webhook route answers the platform: its own shape (a challenge, an echo, an empty 200). */
export type PlatformAnswer = { kind: "json"; body: unknown } | { kind: "text"; body: string };

/** A webhook call as the route read it: the exact body text (signatures cover its bytes), headers and query. */
export interface WebhookRequest {
  headers: Headers;
  query: URLSearchParams;
  body: string;
}
