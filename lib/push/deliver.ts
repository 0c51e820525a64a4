import webpush from "web-push";
import { guardedFetch, outboundRefusalOf } from "@/lib/net/outbound-connect";
import { allSubscriptions, recordPush } from "./store";
import { configuredVapidKeys, vapidSubject } from "./vapid";

// One push to every subscribed browser: web-push encrypts the payload (RFC 8291, aes128gcm) and signs the VAPID
// JWT; the request goes out through the outbound policy like every other notification. A push service answering
// 404 or 410 has dropped the subscription: its row goes too.

export interface PushPayload {
  title: string;
  body: string;
  /** The page a click on the notification opens (a path of the web UI). */
  url: string;
  /** Replaces an earlier notification with the same tag on the device. */
  tag?: string;
}

export interface PushOutcome {
  sent: number;
  gone: number;
  failed: { status: number | null; reason: string; retryable: boolean }[];
}

/** The payload limit of RFC 8291 pushes (4 KB record less the header): longer bodies are cut. */
const MAX_PAYLOAD_BYTES = 3_000;

function encodePayload(payload: PushPayload): string {
  let body = payload.body;
  for (;;) {
    const text = JSON.stringify({ ...payload, body });
    if (Buffer.byteLength(text) <= MAX_PAYLOAD_BYTES || body.length === 0) return text;
    body = `${body.slice(0, Math.floor(body.length * 0.8))}…`;
  }
}

export async function pushToAll(payload: PushPayload, timeoutMs: number): Promise<PushOutcome> {
  const keys = configuredVapidKeys();
  const outcome: PushOutcome = { sent: 0, gone: 0, failed: [] };
  if (!keys) return outcome;
  const text = encodePayload(payload);
  for (const subscription of await allSubscriptions()) {
    const details = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      text,
      {
        vapidDetails: { subject: vapidSubject(), publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: 24 * 3600,
        contentEncoding: "aes128gcm",
        urgency: "normal",
        ...(payload.tag ? { topic: payload.tag.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32) || undefined } : {}),
      },
    );
    try {
      const response = await guardedFetch(details.endpoint, {
        method: details.method,
        headers: details.headers as Record<string, string>,
        body: details.body as Uint8Array<ArrayBuffer>,
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "error",
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) {
        outcome.sent += 1;
        await recordPush(subscription.id, "sent");
      } else if (response.status === 404 || response.status === 410) {
        outcome.gone += 1;
        await recordPush(subscription.id, "gone");
      } else {
        outcome.failed.push({
          status: response.status,
          reason: `push service answered HTTP ${response.status}`,
          retryable: response.status === 429 || response.status >= 500,
        });
        await recordPush(subscription.id, "failed");
      }
    } catch (error) {
      const refused = outboundRefusalOf(error);
      outcome.failed.push({
        status: null,
        reason: refused ? `destination refused: ${refused.message}` : "push service not reachable",
        retryable: !refused,
      });
      await recordPush(subscription.id, "failed");
    }
  }
  return outcome;
}
