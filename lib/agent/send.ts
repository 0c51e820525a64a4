import { notify } from "@/lib/notify";
import type { NotifyResult } from "@/lib/notify";

// POST /api/v1/agent/chat/send – a conversation (the page's Markdown export) to the report channels
// (NOTIFICATION_REPORT_CHANNELS, else every configured channel), through the notification service: its retries,
// delivery log and noise rules apply, as for any report.

const DEFAULT_TITLE = "DSA 问股 / Ask DSA";

export async function sendChatToChannels(content: string, title: string | null | undefined) {
  const result: NotifyResult = await notify({
    kind: "report",
    title: title?.trim() || DEFAULT_TITLE,
    body: content,
    related: { kind: "agent_chat", id: "export" },
  });
  const channels = result.deliveries.map((d) => ({ channel: d.channel, status: d.status }));
  switch (result.status) {
    case "no_channels":
      return {
        success: false,
        error: "no_channels",
        message: "No notification channel is configured: set one in Settings → Notifications",
      };
    case "sent":
    case "partial":
      return { success: true, channels };
    case "suppressed":
      return {
        success: false,
        error: "suppressed",
        message: "Held by the notification rules (quiet hours, severity, duplicate or cooldown)",
        channels,
      };
    default:
      return {
        success: false,
        error: "send_failed",
        message: result.deliveries.map((d) => `${d.channel}: ${d.error ?? d.status}`).join("; ") || "Sending failed",
        channels,
      };
  }
}
