import { fmt } from "@/components/settings/format";
import { ZonedTime } from "@/components/shell/time-zone";
import { cx } from "@/components/ui/cx";
import type { TAlertNotificationList } from "@/lib/alerts/schemas";
import { TD, TH, type AlertTexts } from "./format";

// The notification records of alert triggers (GET /api/v1/alerts/notifications, read on the server): one row per
// channel a trigger went to, and one "not sent" row with the reason when nothing went out.

export function NotificationList({ t, list }: { t: AlertTexts; list: TAlertNotificationList }) {
  if (list.items.length === 0) {
    return (
      <p data-testid="alert-notifications-empty" className="px-3 py-6 text-center text-sm text-muted">
        {t.notificationsEmpty}
      </p>
    );
  }
  const codeText = (code: string | null) =>
    code === null ? "" : (t.errorCodes[code as keyof AlertTexts["errorCodes"]] ?? code);
  return (
    <div
      tabIndex={0}
      className="overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
    >
      <table className="w-full min-w-[44rem] text-sm" data-testid="alert-notifications">
        <thead className="border-b border-line bg-subtle">
          <tr>
            <th scope="col" className={TH}>
              {t.colTime}
            </th>
            <th scope="col" className={TH}>
              {t.colTrigger}
            </th>
            <th scope="col" className={TH}>
              {t.colChannel}
            </th>
            <th scope="col" className={TH}>
              {t.colResult}
            </th>
            <th scope="col" className={cx(TH, "text-right")}>
              {t.colAttempts}
            </th>
            <th scope="col" className={cx(TH, "text-right")}>
              {t.colLatency}
            </th>
            <th scope="col" className={TH}>
              {t.colMessage}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {list.items.map((item) => (
            <tr
              key={item.id}
              data-testid="alert-notification-row"
              data-trigger-id={item.trigger_id ?? ""}
              data-success={item.success}
              data-error-code={item.error_code ?? ""}
            >
              <td className={cx(TD, "whitespace-nowrap tabular-nums")}>
                <time dateTime={item.created_at}>
                  <ZonedTime value={item.created_at} />
                </time>
              </td>
              <td className={cx(TD, "tabular-nums")}>{item.trigger_id === null ? "—" : `#${item.trigger_id}`}</td>
              <td className={cx(TD, "whitespace-nowrap")}>{item.channel === "none" ? t.channelNone : item.channel}</td>
              <td className={cx(TD, "whitespace-nowrap")} data-testid="notification-result">
                <span className={cx("font-medium", item.success ? "text-accent" : "text-muted")}>
                  {item.success ? t.success : t.failure}
                </span>
                {item.error_code ? (
                  <span className="ml-1.5 text-xs text-muted">{codeText(item.error_code)}</span>
                ) : null}
              </td>
              <td className={cx(TD, "text-right tabular-nums")}>{item.attempt}</td>
              <td className={cx(TD, "text-right tabular-nums")}>
                {item.latency_ms === null ? "—" : fmt(t.latency, { ms: item.latency_ms })}
              </td>
              <td className={cx(TD, "max-w-[20rem] truncate text-xs text-muted")} title={item.diagnostics ?? undefined}>
                {item.diagnostics ?? ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
