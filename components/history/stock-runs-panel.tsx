import Link from "next/link";
import { direction } from "@/components/analysis/report-model";
import { directionText, scoreFill } from "@/components/analysis/tone";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import { CARD, CARD_BLOCK, CARD_HEAD, CARD_ROW_3, LABELLED, WIDE } from "@/components/ui/table-cards";
import type { THistoryItem } from "@/lib/history/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { ZonedTime } from "@/components/shell/time-zone";
import { formatPrice, formatSignedPct } from "./format";
import { RecordAction } from "./record-action";

type Texts = Dictionary["historyUi"];

const TH = "px-2 py-1.5 text-left text-xs font-medium whitespace-nowrap text-muted";
const TD = "px-2 py-1.5 align-middle";

function formatRatio(value: number | null): string {
  return value === null ? "—" : value.toFixed(2);
}

// The stock's earlier and later runs next to the report, newest first: how score, action and price moved from run
// to run (the reference's "history trend"). The current record is marked; the others link to their reports. On a
// phone each run is a card: time and action, score, price and change, then volume ratio, turnover and model.
export function StockRunsPanel({
  t,
  items,
  currentId,
  total,
  stockCode,
}: {
  t: Texts;
  items: THistoryItem[];
  currentId: number;
  total: number;
  stockCode: string;
}) {
  if (items.length <= 1) return null;
  return (
    <Panel className="px-4 py-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold">{t.runsTitle}</h2>
        <Link
          href={`/history?stock_code=${encodeURIComponent(stockCode)}`}
          className="text-xs text-accent underline-offset-2 hover:underline"
        >
          {fmt(t.runsAll, { count: total })}
        </Link>
      </div>
      <div className="mt-2 sm:overflow-x-auto">
        <table className={cx("w-full text-sm sm:min-w-[40rem]", CARD_BLOCK)} aria-label={t.runsTitle}>
          <thead className={CARD_HEAD}>
            <tr className="border-b border-line">
              <th className={TH}>{t.runsTime}</th>
              <th className={TH}>{t.runsAction}</th>
              <th className={cx(TH, "text-right")}>{t.runsScore}</th>
              <th className={cx(TH, "text-right")}>{t.runsPrice}</th>
              <th className={cx(TH, "text-right")}>{t.runsChange}</th>
              <th className={cx(TH, "text-right")}>{t.runsVolumeRatio}</th>
              <th className={cx(TH, "text-right")}>{t.runsTurnover}</th>
              <th className={TH}>{t.runsModel}</th>
            </tr>
          </thead>
          <tbody className={CARD_BLOCK}>
            {items.map((item) => {
              const current = item.id === currentId;
              return (
                <tr
                  key={item.id}
                  data-testid="stock-run"
                  aria-current={current ? "true" : undefined}
                  className={cx(CARD_ROW_3, "border-b border-line last:border-0", current && "bg-accent-soft")}
                >
                  <td className={cx(TD, "font-mono text-xs whitespace-nowrap", CARD, WIDE, "max-sm:self-center")}>
                    {current ? (
                      <span>
                        <ZonedTime value={item.created_at} />{" "}
                        <span className="font-sans text-accent">{t.runsCurrent}</span>
                      </span>
                    ) : (
                      <Link href={`/history/${item.id}`} className="text-accent underline-offset-2 hover:underline">
                        <ZonedTime value={item.created_at} />
                      </Link>
                    )}
                  </td>
                  <td className={cx(TD, CARD, "max-sm:text-right")} data-testid="stock-run-action">
                    <RecordAction item={item} labels={t.actions} />
                  </td>
                  <td
                    className={cx(TD, "text-right tabular-nums", LABELLED)}
                    data-label={t.runsScore}
                    data-testid="stock-run-score"
                  >
                    {item.sentiment_score === null ? (
                      "—"
                    ) : (
                      <span className="inline-flex items-center gap-1.5">
                        <span aria-hidden="true" className="inline-block h-1.5 w-10 overflow-hidden rounded bg-subtle">
                          <span
                            className={cx("block h-full", scoreFill(item.sentiment_score))}
                            style={{ width: `${Math.max(0, Math.min(100, item.sentiment_score))}%` }}
                          />
                        </span>
                        {item.sentiment_score}
                      </span>
                    )}
                  </td>
                  <td
                    className={cx(TD, "text-right tabular-nums", LABELLED)}
                    data-label={t.runsPrice}
                    data-testid="stock-run-price"
                  >
                    {formatPrice(item.current_price)}
                  </td>
                  <td
                    className={cx(TD, "text-right tabular-nums", directionText(direction(item.change_pct)), LABELLED)}
                    data-label={t.runsChange}
                  >
                    {formatSignedPct(item.change_pct)}
                  </td>
                  <td className={cx(TD, "text-right tabular-nums", LABELLED)} data-label={t.runsVolumeRatio}>
                    {formatRatio(item.volume_ratio)}
                  </td>
                  <td className={cx(TD, "text-right tabular-nums", LABELLED)} data-label={t.runsTurnover}>
                    {item.turnover_rate === null ? "—" : `${item.turnover_rate.toFixed(2)}%`}
                  </td>
                  <td
                    className={cx(
                      TD,
                      "max-w-[10rem] truncate text-xs text-muted",
                      LABELLED,
                      "max-sm:max-w-none max-sm:break-words",
                    )}
                    data-label={t.runsModel}
                  >
                    {item.model_used ?? "—"}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
