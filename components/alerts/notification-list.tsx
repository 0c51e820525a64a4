import { fmt } from "@/components/settings/format";
import { ZonedTime } from "@/components/shell/time-zone";
import { cx } from "@/components/ui/cx";
import { CARD_BLOCK, CARD_HEAD, CARD_ROW_3, LABELLED, WIDE } from "@/components/ui/table-cards";
import type { TAlertNotificationList } from "@/lib/alerts/schemas";
import { TD, TH, type AlertTexts } from "./format";

// The notification records of alert triggers (GET /api/v1/alerts/notifications, read on the server): one row per
// channel a trigger went to, and one "not sent" row with the reason when nothing went out. On a phone each record is
// a card: result, channel and trigger, time, attempts and latency, then the message.

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
      className="focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent sm:overflow-x-auto"
    >
      <table className={cx("w-full text-sm sm:min-w-[44rem]", CARD_BLOCK)} data-testid="alert-notifications">
        <thead className={cx("border-b border-line bg-subtle", CARD_HEAD)}>
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
        <tbody className={cx("divide-y divide-line", CARD_BLOCK)}>
          {list.items.map((item) => (
            <tr
              key={item.id}
              data-testid="alert-notification-row"
              data-trigger-id={item.trigger_id ?? ""}
              data-success={item.success}
              data-error-code={item.error_code ?? ""}
              className={CARD_ROW_3}
            >
              <td
                className={cx(TD, "whitespace-nowrap tabular-nums", LABELLED, WIDE, "max-sm:order-4")}
                data-label={t.colTime}
              >
                <time dateTime={item.created_at}>
                  <ZonedTime value={item.created_at} />
                </time>
              </td>
              <td className={cx(TD, "tabular-nums", LABELLED, "max-sm:order-3")} data-label={t.colTrigger}>
                {item.trigger_id === null ? "—" : `#${item.trigger_id}`}
              </td>
              <td className={cx(TD, "whitespace-nowrap", LABELLED, "max-sm:order-2")} data-label={t.colChannel}>
                {item.channel === "none" ? t.channelNone : item.channel}
              </td>
              <td
                className={cx(TD, "whitespace-nowrap", LABELLED, "max-sm:order-1")}
                data-label={t.colResult}
                data-testid="notification-result"
              >
                <span className={cx("font-medium", item.success ? "text-accent" : "text-muted")}>
                  {item.success ? t.success : t.failure}
                </span>
                {item.error_code ? (
                  <span className="ml-1.5 text-xs text-muted">{codeText(item.error_code)}</span>
                ) : null}
              </td>
              <td className={cx(TD, "text-right tabular-nums", LABELLED, "max-sm:order-5")} data-label={t.colAttempts}>
                {item.attempt}
              </td>
              <td className={cx(TD, "text-right tabular-nums", LABELLED, "max-sm:order-6")} data-label={t.colLatency}>
                {item.latency_ms === null ? "—" : fmt(t.latency, { ms: item.latency_ms })}
              </td>
              <td
                className={cx(
                  TD,
                  "max-w-[20rem] truncate text-xs text-muted",
                  LABELLED,
                  WIDE,
                  "max-sm:order-7 max-sm:max-w-none max-sm:break-words",
                )}
                data-label={t.colMessage}
                title={item.diagnostics ?? undefined}
              >
                {item.diagnostics ?? ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
