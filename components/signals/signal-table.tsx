import Link from "next/link";
import { actionTone } from "@/components/analysis/tone";
import { formatPrice } from "@/components/history/format";
import { fmt } from "@/components/settings/format";
import { ZonedTime } from "@/components/shell/time-zone";
import { cx } from "@/components/ui/cx";
import { CARD, CARD_BLOCK, CARD_HEAD, CARD_ROW_3, FULL, LABELLED, WIDE } from "@/components/ui/table-cards";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { TDecisionSignalItem } from "@/lib/signals/schemas";
import { formatRange, labelOf, statusTone } from "./format";

type Texts = Dictionary["signalsUi"];

const TH = "px-2 py-1.5 text-left text-xs font-medium whitespace-nowrap text-muted";
const TD = "px-2 py-1.5 align-middle whitespace-nowrap";

export function StatusBadge({ t, status }: { t: Texts; status: TDecisionSignalItem["status"] }) {
  return (
    <span
      data-testid="signal-status"
      data-status={status}
      className={cx(
        "inline-flex rounded border px-1.5 py-px text-xs font-medium whitespace-nowrap",
        statusTone(status),
      )}
    >
      {labelOf(t.statuses, status)}
    </span>
  );
}

// The action by its code in the UI language, not the signal's stored action_label.
export function ActionBadge({ t, action }: { t: Texts; action: TDecisionSignalItem["action"] }) {
  return (
    <span
      data-action={action}
      className={cx(
        "inline-flex rounded border px-1.5 py-px text-xs font-semibold whitespace-nowrap",
        actionTone(action),
      )}
    >
      {labelOf(t.actions, action)}
    </span>
  );
}

// One page of signals, server-rendered. A row's stock name opens the detail drawer by adding ?signal=<id>, which
// keeps the filters and the page. On a phone each signal is a card: the stock, then action, status and score, the
// plan's entry, stop and target, then horizon, time, source and expiry.
export function SignalTable({
  t,
  items,
  openId,
  hrefFor,
}: {
  t: Texts;
  items: TDecisionSignalItem[];
  openId: number | null;
  hrefFor: (id: number) => string;
}) {
  return (
    <div className="sm:overflow-x-auto">
      <table className={cx("w-full border-collapse text-sm sm:min-w-[52rem]", CARD_BLOCK)} data-testid="signals-table">
        <thead className={cx("border-b border-line bg-subtle/60", CARD_HEAD)}>
          <tr>
            <th scope="col" className={TH}>
              {t.colTime}
            </th>
            <th scope="col" className={TH}>
              {t.colStock}
            </th>
            <th scope="col" className={TH}>
              {t.colAction}
            </th>
            <th scope="col" className={TH}>
              {t.colStatus}
            </th>
            <th scope="col" className={TH}>
              {t.colHorizon}
            </th>
            <th scope="col" className={cx(TH, "text-right")}>
              {t.colEntry}
            </th>
            <th scope="col" className={cx(TH, "text-right")}>
              {t.colStop}
            </th>
            <th scope="col" className={cx(TH, "text-right")}>
              {t.colTarget}
            </th>
            <th scope="col" className={cx(TH, "text-right")}>
              {t.colScore}
            </th>
            <th scope="col" className={TH}>
              {t.colSource}
            </th>
            <th scope="col" className={TH}>
              {t.colExpires}
            </th>
          </tr>
        </thead>
        <tbody className={cx("divide-y divide-line", CARD_BLOCK)}>
          {items.map((item) => {
            const name = item.stock_name ?? item.stock_code;
            return (
              <tr
                key={item.id}
                data-testid="signal-row"
                data-signal-id={item.id}
                aria-current={openId === item.id ? "true" : undefined}
                className={cx(CARD_ROW_3, "hover:bg-subtle/50", openId === item.id && "bg-accent-soft/60")}
              >
                <td
                  className={cx(TD, "font-mono text-xs text-muted", LABELLED, WIDE, "max-sm:order-9")}
                  data-label={t.colTime}
                >
                  <time dateTime={item.created_at}>
                    <ZonedTime value={item.created_at} />
                  </time>
                </td>
                <td className={cx(TD, CARD, FULL, "max-sm:order-1")}>
                  <Link
                    href={hrefFor(item.id)}
                    scroll={false}
                    aria-label={fmt(t.openSignal, { id: item.id, name })}
                    className="font-medium text-accent underline-offset-2 hover:underline"
                  >
                    {name}
                  </Link>
                  <span className="ml-1.5 font-mono text-xs text-muted">{item.stock_code}</span>
                  <span className="ml-1.5 text-xs text-muted">{labelOf(t.markets, item.market)}</span>
                </td>
                <td className={cx(TD, LABELLED, "max-sm:order-2")} data-label={t.colAction} data-testid="signal-action">
                  <ActionBadge t={t} action={item.action} />
                </td>
                <td className={cx(TD, LABELLED, "max-sm:order-3")} data-label={t.colStatus}>
                  <StatusBadge t={t} status={item.status} />
                </td>
                <td className={cx(TD, "text-xs", LABELLED, "max-sm:order-8")} data-label={t.colHorizon}>
                  {labelOf(t.horizons, item.horizon)}
                </td>
                <td
                  className={cx(TD, "text-right tabular-nums", LABELLED, "max-sm:order-5")}
                  data-label={t.colEntry}
                  data-testid="signal-entry"
                >
                  {formatRange(item.entry_low, item.entry_high)}
                </td>
                <td
                  className={cx(TD, "text-right tabular-nums", LABELLED, "max-sm:order-6")}
                  data-label={t.colStop}
                  data-testid="signal-stop"
                >
                  {formatPrice(item.stop_loss)}
                </td>
                <td
                  className={cx(TD, "text-right tabular-nums", LABELLED, "max-sm:order-7")}
                  data-label={t.colTarget}
                  data-testid="signal-target"
                >
                  {formatPrice(item.target_price)}
                </td>
                <td
                  className={cx(TD, "text-right font-medium tabular-nums", LABELLED, "max-sm:order-4")}
                  data-label={t.colScore}
                  data-testid="signal-score"
                >
                  {item.score ?? "—"}
                </td>
                <td className={cx(TD, "text-xs", LABELLED, WIDE, "max-sm:order-10")} data-label={t.colSource}>
                  {item.source_report_id !== null ? (
                    <Link
                      href={`/history/${item.source_report_id}`}
                      className="text-accent underline-offset-2 hover:underline"
                    >
                      {labelOf(t.sources, item.source_type)} #{item.source_report_id}
                    </Link>
                  ) : (
                    <span className="text-muted">{labelOf(t.sources, item.source_type)}</span>
                  )}
                </td>
                <td className={cx(TD, "text-xs text-muted", LABELLED, "max-sm:order-11")} data-label={t.colExpires}>
                  {item.expires_at ? (
                    <time dateTime={item.expires_at} className="font-mono">
                      <ZonedTime value={item.expires_at} />
                    </time>
                  ) : (
                    t.noExpiry
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
