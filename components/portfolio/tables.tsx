import { TD, TH } from "@/components/alerts/format";
import { DOWN_TEXT, UP_TEXT } from "@/components/analysis/tone";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { Pagination } from "@/components/ui/pagination";
import type { TTrade } from "@/lib/portfolio/schemas";
import { DeleteTradeButton } from "./delete-trade";
import { money, price, quantity, type PortfolioTexts } from "./format";

const NUM = cx(TD, "text-right tabular-nums whitespace-nowrap");

// One page of trades, newest first, each with its delete button.
export function TradesTable({
  t,
  trades,
  total,
  page,
  pageSize,
  href,
}: {
  t: PortfolioTexts;
  trades: TTrade[];
  total: number;
  page: number;
  pageSize: number;
  href: (page: number) => string;
}) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  if (trades.length === 0) {
    return (
      <p data-testid="trades-empty" className="px-3 py-6 text-center text-sm text-muted">
        {t.tradesEmpty}
      </p>
    );
  }
  return (
    <>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[40rem] text-sm" data-testid="trades">
          <thead className="border-b border-line bg-subtle">
            <tr>
              <th scope="col" className={TH}>
                {t.colDate}
              </th>
              <th scope="col" className={TH}>
                {t.colSide}
              </th>
              <th scope="col" className={TH}>
                {t.colCode}
              </th>
              <th scope="col" className={cx(TH, "text-right")}>
                {t.colQuantity}
              </th>
              <th scope="col" className={cx(TH, "text-right")}>
                {t.colPrice}
              </th>
              <th scope="col" className={cx(TH, "text-right")}>
                {t.colFee}
              </th>
              <th scope="col" className={cx(TH, "text-right")}>
                {t.colTax}
              </th>
              <th scope="col" className={TH}>
                {t.colSource}
              </th>
              <th scope="col" className={TH}>
                {t.colActions}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {trades.map((trade) => (
              <tr key={trade.id} data-testid="trade-row" data-trade-id={trade.id}>
                <td className={cx(TD, "whitespace-nowrap tabular-nums")}>{trade.trade_date}</td>
                <td className={cx(TD, "font-medium", trade.side === "buy" ? UP_TEXT : DOWN_TEXT)}>
                  {t.sides[trade.side]}
                </td>
                <td className={cx(TD, "tabular-nums")}>
                  {trade.symbol}
                  {trade.note ? <span className="ml-1.5 text-xs text-muted">{trade.note}</span> : null}
                </td>
                <td className={NUM}>{quantity(trade.quantity)}</td>
                <td className={NUM}>{price(trade.price)}</td>
                <td className={NUM}>{money(trade.fee)}</td>
                <td className={NUM}>{money(trade.tax)}</td>
                <td className={cx(TD, "text-xs text-muted")}>
                  {Object.hasOwn(t.sources, trade.source)
                    ? t.sources[trade.source as keyof PortfolioTexts["sources"]]
                    : trade.source}
                </td>
                <td className={TD}>
                  <DeleteTradeButton t={t} trade={trade} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pageCount > 1 ? (
        <div className="border-t border-line px-3 py-2">
          <Pagination
            page={page}
            pageCount={pageCount}
            href={href}
            labels={{
              nav: t.tradesPagination,
              previous: t.prevPage,
              next: t.nextPage,
              status: fmt(t.pageOf, { page, pages: pageCount }),
            }}
          />
        </div>
      ) : null}
    </>
  );
}
