import { TD, TH } from "@/components/alerts/format";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import type { TCashList, TCorporateActionList } from "@/lib/portfolio/event-schemas";
import { DeleteRecordButton } from "./delete-trade";
import { money, price, type PortfolioTexts } from "./format";

// The newest cash ledger entries and corporate actions of the open account, each with its delete button.

const NUM = cx(TD, "text-right tabular-nums whitespace-nowrap");

export function CashTable({ t, list }: { t: PortfolioTexts; list: TCashList }) {
  if (list.items.length === 0) {
    return (
      <p data-testid="cash-empty" className="px-3 py-4 text-center text-sm text-muted">
        {t.cashEmpty}
      </p>
    );
  }
  return (
    <div className="overflow-x-auto border-t border-line">
      <table className="w-full min-w-[28rem] text-sm" data-testid="cash-ledger" data-total={list.total}>
        <thead className="border-b border-line bg-subtle">
          <tr>
            <th scope="col" className={TH}>
              {t.colDate}
            </th>
            <th scope="col" className={TH}>
              {t.colSide}
            </th>
            <th scope="col" className={cx(TH, "text-right")}>
              {t.cashAmount}
            </th>
            <th scope="col" className={TH}>
              {t.colActions}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {list.items.map((e) => (
            <tr key={e.id} data-testid="cash-row" data-entry-id={e.id}>
              <td className={cx(TD, "whitespace-nowrap tabular-nums")}>{e.event_date}</td>
              <td className={TD}>
                {t.cashDirections[e.direction]}
                {e.note ? <span className="ml-1.5 text-xs text-muted">{e.note}</span> : null}
              </td>
              <td className={NUM}>
                <span className="mr-1 text-xs text-muted">{e.currency}</span>
                {e.direction === "out" ? "-" : ""}
                {money(e.amount)}
              </td>
              <td className={TD}>
                <DeleteRecordButton
                  t={t}
                  url={`/api/v1/portfolio/cash-ledger/${e.id}`}
                  aria={fmt(t.deleteRecordAria, { id: e.id })}
                  title={t.deleteCashTitle}
                  body={`${e.event_date} ${t.cashDirections[e.direction]} ${money(e.amount)} ${e.currency}`}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ActionsTable({ t, list }: { t: PortfolioTexts; list: TCorporateActionList }) {
  if (list.items.length === 0) {
    return (
      <p data-testid="actions-empty" className="px-3 py-4 text-center text-sm text-muted">
        {t.actionsEmpty}
      </p>
    );
  }
  return (
    <div className="overflow-x-auto border-t border-line">
      <table className="w-full min-w-[28rem] text-sm" data-testid="corporate-actions" data-total={list.total}>
        <thead className="border-b border-line bg-subtle">
          <tr>
            <th scope="col" className={TH}>
              {t.colDate}
            </th>
            <th scope="col" className={TH}>
              {t.colCode}
            </th>
            <th scope="col" className={TH}>
              {t.colType}
            </th>
            <th scope="col" className={cx(TH, "text-right")}>
              {t.colValue}
            </th>
            <th scope="col" className={TH}>
              {t.colActions}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {list.items.map((a) => {
            const value =
              a.action_type === "cash_dividend"
                ? `${a.currency} ${price(a.cash_dividend_per_share)}`
                : `× ${a.split_ratio}`;
            return (
              <tr key={a.id} data-testid="action-row" data-action-id={a.id}>
                <td className={cx(TD, "whitespace-nowrap tabular-nums")}>{a.effective_date}</td>
                <td className={cx(TD, "tabular-nums")}>{a.symbol}</td>
                <td className={TD}>
                  {t.actionTypes[a.action_type]}
                  {a.note ? <span className="ml-1.5 text-xs text-muted">{a.note}</span> : null}
                </td>
                <td className={NUM}>{value}</td>
                <td className={TD}>
                  <DeleteRecordButton
                    t={t}
                    url={`/api/v1/portfolio/corporate-actions/${a.id}`}
                    aria={fmt(t.deleteRecordAria, { id: a.id })}
                    title={t.deleteActionTitle}
                    body={`${a.effective_date} ${a.symbol} ${t.actionTypes[a.action_type]} ${value}`}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
