import Link from "next/link";
import { actionTone } from "@/components/analysis/tone";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { TStockBarItem } from "@/lib/history/schemas";
import { codeLabel } from "@/lib/i18n/labels";

type Texts = Dictionary["historyUi"];

// The analysed stocks (GET /api/v1/history/stocks) with their record counts; a click filters the list by that stock.
export function StockSidebar({
  t,
  stocks,
  total,
  activeCode,
  hrefFor,
}: {
  t: Texts;
  stocks: TStockBarItem[];
  total: number;
  activeCode: string | null;
  hrefFor: (code: string | null) => string;
}) {
  return (
    <Panel className="overflow-hidden">
      <div className="flex items-baseline justify-between gap-2 border-b border-line px-3 py-2">
        <h2 className="text-sm font-semibold">{t.stocksTitle}</h2>
        <span className="text-xs text-muted tabular-nums">{fmt(t.stocksCount, { count: total })}</span>
      </div>
      <nav aria-label={t.stocksTitle} className="max-h-56 overflow-y-auto lg:max-h-[calc(100dvh-12rem)]">
        <Link
          href={hrefFor(null)}
          aria-current={activeCode === null ? "true" : undefined}
          className={cx(
            "flex items-center justify-between border-b border-line px-3 py-1.5 text-sm",
            activeCode === null ? "bg-accent-soft font-medium text-accent" : "hover:bg-subtle",
          )}
        >
          {t.allStocks}
        </Link>
        {stocks.length === 0 ? (
          <p className="px-3 py-3 text-xs text-muted">{t.stocksEmpty}</p>
        ) : (
          <ul className="divide-y divide-line" data-testid="history-stocks">
            {stocks.map((stock) => {
              const name = stock.stock_name ?? stock.stock_code;
              const active = activeCode !== null && activeCode.toUpperCase() === stock.stock_code.toUpperCase();
              return (
                <li key={stock.id}>
                  <Link
                    href={hrefFor(stock.stock_code)}
                    aria-current={active ? "true" : undefined}
                    aria-label={fmt(t.stockLinkAria, { name, code: stock.stock_code, count: stock.analysis_count })}
                    data-testid="history-stock"
                    data-code={stock.stock_code}
                    className={cx(
                      "grid grid-cols-[1fr_auto] items-center gap-x-2 px-3 py-1.5",
                      active ? "bg-accent-soft" : "hover:bg-subtle",
                    )}
                  >
                    <span className="min-w-0">
                      <span
                        className={cx("block truncate text-sm", active ? "font-semibold text-accent" : "font-medium")}
                      >
                        {name}
                      </span>
                      <span className="block font-mono text-[11px] text-muted">{stock.stock_code}</span>
                    </span>
                    <span className="flex flex-col items-end gap-0.5">
                      <span className="text-xs text-muted tabular-nums" data-testid="history-stock-count">
                        {fmt(t.stockCount, { count: stock.analysis_count })}
                      </span>
                      {stock.action ? (
                        <span
                          data-testid="history-stock-action"
                          data-action={stock.action}
                          className={cx(
                            "rounded border px-1 text-[10px] leading-4 font-semibold",
                            actionTone(stock.action),
                          )}
                        >
                          {codeLabel(t.actions, stock.action)}
                        </span>
                      ) : null}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </nav>
    </Panel>
  );
}
