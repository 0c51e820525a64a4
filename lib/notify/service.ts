import type { Prisma } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";
import { db } from "@/lib/db/client";
import { normalizeReportLanguage } from "@/lib/analysis/engine/language";
import { configuredTargets } from "./channels";
import { publicBaseUrl } from "./messages";
import { notify } from "./notify";
import type {
  TDeliveryListQuery,
  TDeliveryListResponse,
  TNotifyChannelList,
  TNotifyTestRequest,
  TNotifyTestResult,
} from "./schemas";

// The notification endpoints: which channels are on, a test message to them, and the delivery log.

export function listChannels(): TNotifyChannelList {
  return { channels: configuredTargets(getSettings()).map((target) => ({ id: target.id, channel: target.channel })) };
}

const TEST_TEXT = {
  zh: { title: "DSA 测试通知", body: "这是一条测试消息：收到即说明此渠道配置正确。", at: "发送时间", open: "打开设置" },
  en: {
    title: "DSA test notification",
    body: "This is a test message: if you can read it, this channel is set up correctly.",
    at: "Sent at",
    open: "Open the settings",
  },
} as const;

export async function sendTestNotification(request: TNotifyTestRequest): Promise<TNotifyTestResult> {
  const t = TEST_TEXT[normalizeReportLanguage(null, getSettings().REPORT_LANGUAGE) === "en" ? "en" : "zh"];
  return notify(
    {
      kind: "test",
      title: t.title,
      body: `${t.body}\n\n- **${t.at}**: ${now().toISOString()}`,
      link: { url: `${publicBaseUrl()}/settings`, label: t.open },
      related: null,
    },
    { channels: request.channels },
  );
}

export async function listDeliveries(query: TDeliveryListQuery): Promise<TDeliveryListResponse> {
  const where: Prisma.NotificationDeliveryWhereInput = {
    status: query.status,
    channel: query.channel,
    kind: query.kind,
  };
  const [total, rows] = await Promise.all([
    db().notificationDelivery.count({ where }),
    db().notificationDelivery.findMany({
      where,
      orderBy: { id: "desc" },
      skip: (query.page - 1) * query.page_size,
      take: query.page_size,
    }),
  ]);
  return {
    total,
    page: query.page,
    page_size: query.page_size,
    items: rows.map((row) => ({
      id: row.id,
      channel: row.channel,
      kind: row.kind,
      status: row.status === "sent" || row.status === "failed" ? row.status : "suppressed",
      attempts: row.attempts,
      error: row.error,
      title: row.title,
      related_kind: row.relatedKind,
      related_id: row.relatedId,
      latency_ms: row.latencyMs,
      created_at: row.createdAt.toISOString(),
    })),
  };
}
