"use client";

import { useState } from "react";
import { postJson } from "@/components/auth/api-errors";
import { BUTTON_SECONDARY, FormMessage } from "@/components/auth/password-input";
import { useFormatTime } from "@/components/shell/time-zone";
import { Badge } from "@/components/ui/badge";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { TDeliveryItem, TDeliveryListResponse, TNotifyChannelList, TNotifyTestResult } from "@/lib/notify/schemas";
import { fmt } from "./format";

type NotifyTexts = Dictionary["notifyUi"];
type Message = { tone: "error" | "success"; text: string } | null;

const STATUS_TONE: Record<TDeliveryItem["status"], string> = {
  sent: "text-green-700 dark:text-green-300",
  failed: "text-red-700 dark:text-red-300",
  suppressed: "text-muted",
};

// Which channels are on (their settings are edited in the Notifications tab), a test message to all of them, and
// the latest deliveries with their outcome, so a misconfigured channel shows its reason right here.
export function NotifyPanel({
  t,
  channels,
  initialDeliveries,
  pageSize,
}: {
  t: NotifyTexts;
  channels: TNotifyChannelList["channels"];
  initialDeliveries: TDeliveryItem[];
  pageSize: number;
}) {
  const formatTime = useFormatTime();
  const [deliveries, setDeliveries] = useState(initialDeliveries);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);

  async function sendTest() {
    setBusy(true);
    setMessage(null);
    const result = await postJson("/api/v1/notifications/test", {});
    if (result.ok) {
      const body = (await result.res.json()) as TNotifyTestResult;
      const sent = body.deliveries.filter((d) => d.status === "sent").length;
      setMessage({
        tone: body.status === "sent" ? "success" : "error",
        text: fmt(t.testResult, { sent, total: body.deliveries.length }),
      });
      const res = await fetch(`/api/v1/notifications/deliveries?page_size=${pageSize}`, { cache: "no-store" });
      if (res.ok) setDeliveries(((await res.json()) as TDeliveryListResponse).items);
    } else {
      setMessage({ tone: "error", text: fmt(t.testFailed, { message: result.failure?.message ?? "network error" }) });
    }
    setBusy(false);
  }

  const statusText = (status: TDeliveryItem["status"]) =>
    status === "sent" ? t.statusSent : status === "failed" ? t.statusFailed : t.statusSuppressed;

  return (
    <Panel className="flex flex-col gap-2 px-4 py-3">
      <h2 id="notify-channels" className="text-sm font-semibold">
        {t.title}
      </h2>
      {channels.length === 0 ? (
        <p className="text-xs leading-5 text-muted">{t.none}</p>
      ) : (
        <ul aria-label={t.title} className="flex flex-wrap gap-1.5">
          {channels.map((c) => (
            <li key={c.id}>
              <Badge tone="accent">{c.id}</Badge>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        disabled={busy || channels.length === 0}
        onClick={sendTest}
        className={`${BUTTON_SECONDARY} self-start`}
      >
        {busy ? t.testing : t.test}
      </button>
      {message && <FormMessage tone={message.tone}>{message.text}</FormMessage>}
      <h3 className="mt-1 text-xs font-semibold text-muted">{t.recent}</h3>
      {deliveries.length === 0 ? (
        <p className="text-xs text-muted">{t.noDeliveries}</p>
      ) : (
        <ul aria-label={t.recent}>
          {deliveries.map((d) => (
            <li key={d.id} data-testid="delivery" className="flex flex-col gap-0.5 border-t border-line py-1.5 text-xs">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-mono">{formatTime(d.created_at)}</span>
                <Badge>{d.channel}</Badge>
                <span className={cx("font-medium", STATUS_TONE[d.status])}>{statusText(d.status)}</span>
              </div>
              <span className="truncate text-muted" title={d.title}>
                {d.title}
              </span>
              {d.error ? <span className="break-words text-muted">{d.error}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
