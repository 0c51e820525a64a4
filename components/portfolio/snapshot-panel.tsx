import { TD, TH } from "@/components/alerts/format";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import type { TSnapshot, TSnapshotPosition } from "@/lib/portfolio/snapshot-schema";
import { AnalyzePositionButton } from "./analyze-position";
import { marketLabel, money, price, quantity, signedMoney, signedPct, pnlTone, type PortfolioTexts } from "./format";

// The snapshot of GET /api/v1/portfolio/snapshot (CONTRACT §12.1.5) for the page's account(s), as_of and cost method:
// money cards and the positions table flattened from the accounts, as the reference's page shows it.

const NUM = cx(TD, "text-right tabular-nums whitespace-nowrap");

function Card({ id, label, value, raw, tone }: { id: string; label: string; value: string; raw: number; tone?: string }) {
  return (
    <div className="min-w-0" data-testid={`snapshot-${id}`} data-value={raw}>
      <dt className="truncate text-xs text-muted">{label}</dt>
      <dd className={cx("mt-0.5 text-lg font-semibold tabular-nums", tone)} data-testid="card-value">
        {value}
      </dd>
    </div>
  );
}

export function SnapshotCards({ t, snapshot }: { t: PortfolioTexts; snapshot: TSnapshot }) {
  const c = snapshot.currency;
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-3 px-3 py-3 sm:grid-cols-3 lg:grid-cols-6" data-testid="snapshot-cards">
      <Card id="equity" label={fmt(t.cardEquity, { currency: c })} value={money(snapshot.total_equity)} raw={snapshot.total_equity} />
      <Card id="market-value" label={fmt(t.cardMarketValue, { currency: c })} value={money(snapshot.total_market_value)} raw={snapshot.total_market_value} />
      <Card id="cash" label={fmt(t.cardCash, { currency: c })} value={money(snapshot.total_cash)} raw={snapshot.total_cash} />
      <Card id="unrealized" label={t.cardUnrealized} value={signedMoney(snapshot.unrealized_pnl)} raw={snapshot.unrealized_pnl} tone={pnlTone(snapshot.unrealized_pnl)} />
      <Card id="realized" label={t.cardRealized} value={signedMoney(snapshot.realized_pnl)} raw={snapshot.realized_pnl} tone={pnlTone(snapshot.realized_pnl)} />
      <Card id="costs" label={t.cardCosts} value={money(snapshot.fee_total + snapshot.tax_total)} raw={snapshot.fee_total + snapshot.tax_total} />
    </dl>
  );
}

export function FxBadge({ t, stale }: { t: PortfolioTexts; stale: boolean }) {
  return (
    <span
      data-testid="fx-badge"
      data-stale={stale ? "true" : "false"}
      className={cx(
        "rounded border px-1.5 text-xs font-medium",
        stale ? "border-amber-500/40 bg-amber-50 text-amber-800 dark:bg-amber-950/60 dark:text-amber-300" : "border-line bg-subtle text-muted",
      )}
    >
      {stale ? t.fxStale : t.fxLatest}
    </span>
  );
}

function sourceText(t: PortfolioTexts, p: TSnapshotPosition): string {
  if (p.price_source === "realtime_quote") return fmt(t.sourceQuote, { provider: p.price_provider ?? "" });
  if (p.price_source === "history_close") return p.price_stale ? fmt(t.sourceStaleClose, { date: p.price_date ?? "" }) : t.sourceClose;
  return t.sourceMissing;
}

export function SnapshotPositions({ t, snapshot, accountNames }: { t: PortfolioTexts; snapshot: TSnapshot; accountNames: boolean }) {
  const rows = snapshot.accounts.flatMap((a) => a.positions.map((p) => ({ account: a.account_name, p })));
  if (rows.length === 0) {
    return (
      <p data-testid="positions-empty" className="px-3 py-6 text-center text-sm text-muted">
        {t.positionsEmpty}
      </p>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[54rem] text-sm" data-testid="positions">
        <thead className="border-b border-line bg-subtle">
          <tr>
            <th scope="col" className={TH}>{t.colCode}</th>
            {accountNames ? <th scope="col" className={TH}>{t.colAccount}</th> : null}
            <th scope="col" className={cx(TH, "text-right")}>{t.colQuantity}</th>
            <th scope="col" className={cx(TH, "text-right")}>{t.colCostPerShare}</th>
            <th scope="col" className={cx(TH, "text-right")}>{t.colLastPrice}</th>
            <th scope="col" className={cx(TH, "text-right")}>{t.colMarketValue}</th>
            <th scope="col" className={cx(TH, "text-right")}>{t.colPnl}</th>
            <th scope="col" className={TH}>{t.colPriceSource}</th>
            <th scope="col" className={TH}>{t.colActions}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {rows.map(({ account, p }) => (
            <tr key={`${p.account_id}:${p.market}:${p.symbol}`} data-testid="position-row" data-code={p.symbol} data-source={p.price_source}>
              <td className={cx(TD, "font-medium tabular-nums whitespace-nowrap")}>
                {p.symbol} <span className="text-xs font-normal text-muted">{marketLabel(t, p.market)}</span>
              </td>
              {accountNames ? <td className={cx(TD, "text-xs text-muted")}>{account}</td> : null}
              <td className={NUM} data-testid="position-quantity">{quantity(p.quantity)}</td>
              <td className={NUM} data-testid="position-avg-cost">{price(p.avg_cost)}</td>
              <td className={NUM} data-testid="position-last-price">{p.price_available ? price(p.last_price) : "—"}</td>
              <td className={NUM} data-testid="position-market-value">
                <span className="mr-1 text-xs text-muted">{p.valuation_currency}</span>
                {money(p.market_value_base)}
              </td>
              <td className={cx(NUM, p.price_available && pnlTone(p.unrealized_pnl_base))} data-testid="position-pnl">
                {p.price_available ? (
                  <>
                    {signedMoney(p.unrealized_pnl_base)} <span className="text-xs">{signedPct(p.unrealized_pnl_pct)}</span>
                  </>
                ) : (
                  "—"
                )}
              </td>
              <td className={cx(TD, "text-xs whitespace-nowrap text-muted")} data-testid="position-source">
                {sourceText(t, p)}
              </td>
              <td className={TD}>
                <AnalyzePositionButton t={t} symbol={p.symbol} accountId={p.account_id} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
