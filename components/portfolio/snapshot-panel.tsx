import Link from "next/link";
import { TD, TH } from "@/components/alerts/format";
import { actionTone } from "@/components/analysis/tone";
import { fmt } from "@/components/settings/format";
import { ZonedTime } from "@/components/shell/time-zone";
import { cx } from "@/components/ui/cx";
import { CARD, CARD_BLOCK, CARD_HEAD, CARD_ROW, LABELLED, WIDE } from "@/components/ui/table-cards";
import { positionKey, type PositionVerdict } from "@/lib/portfolio/position-verdicts";
import type { TSnapshot, TSnapshotPosition } from "@/lib/portfolio/snapshot-schema";
import { AnalyzePositionButton } from "./analyze-position";
import { marketLabel, money, price, quantity, signedMoney, signedPct, pnlTone, type PortfolioTexts } from "./format";

// The snapshot of GET /api/v1/portfolio/snapshot (docs/api.md §12.1.5) for the page's account(s), as_of and cost method:
// money cards and the positions table flattened from the accounts, as the reference's page shows it. Each
// position shows its stock's latest verdict and that report's stop, flagged when the last price is below the stop.

const NUM = cx(TD, "text-right tabular-nums whitespace-nowrap");

function Card({
  id,
  label,
  value,
  raw,
  tone,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  raw: number;
  tone?: string;
  /** A line under the value that says what to do about it. */
  hint?: string;
}) {
  return (
    <div className="min-w-0" data-testid={`snapshot-${id}`} data-value={raw}>
      <dt className="truncate text-xs text-muted">{label}</dt>
      <dd className={cx("mt-0.5 text-lg font-semibold tabular-nums", tone)} data-testid="card-value">
        {value}
      </dd>
      {hint ? (
        <dd data-testid="card-hint" className="mt-0.5 text-xs leading-4 text-amber-700 dark:text-amber-400">
          {hint}
        </dd>
      ) : null}
    </div>
  );
}

export function SnapshotCards({ t, snapshot }: { t: PortfolioTexts; snapshot: TSnapshot }) {
  const c = snapshot.currency;
  return (
    <dl
      className="grid grid-cols-2 gap-x-4 gap-y-3 px-3 py-3 sm:grid-cols-3 lg:grid-cols-6"
      data-testid="snapshot-cards"
    >
      <Card
        id="equity"
        label={fmt(t.cardEquity, { currency: c })}
        value={money(snapshot.total_equity)}
        raw={snapshot.total_equity}
      />
      <Card
        id="market-value"
        label={fmt(t.cardMarketValue, { currency: c })}
        value={money(snapshot.total_market_value)}
        raw={snapshot.total_market_value}
      />
      <Card
        id="cash"
        label={fmt(t.cardCash, { currency: c })}
        value={money(snapshot.total_cash)}
        raw={snapshot.total_cash}
        // Buys recorded without the cash that paid for them: the figure is not an overdraft, a deposit is missing.
        tone={snapshot.total_cash < 0 ? "text-amber-700 dark:text-amber-400" : undefined}
        hint={snapshot.total_cash < 0 ? t.cashNegativeHint : undefined}
      />
      <Card
        id="unrealized"
        label={t.cardUnrealized}
        value={signedMoney(snapshot.unrealized_pnl)}
        raw={snapshot.unrealized_pnl}
        tone={pnlTone(snapshot.unrealized_pnl)}
      />
      <Card
        id="realized"
        label={t.cardRealized}
        value={signedMoney(snapshot.realized_pnl)}
        raw={snapshot.realized_pnl}
        tone={pnlTone(snapshot.realized_pnl)}
      />
      <Card
        id="costs"
        label={t.cardCosts}
        value={money(snapshot.fee_total + snapshot.tax_total)}
        raw={snapshot.fee_total + snapshot.tax_total}
      />
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
        stale
          ? "border-amber-500/40 bg-amber-50 text-amber-800 dark:bg-amber-950/60 dark:text-amber-300"
          : "border-line bg-subtle text-muted",
      )}
    >
      {stale ? t.fxStale : t.fxLatest}
    </span>
  );
}

function sourceText(t: PortfolioTexts, p: TSnapshotPosition): string {
  if (p.price_source === "realtime_quote") return fmt(t.sourceQuote, { provider: p.price_provider ?? "" });
  if (p.price_source === "history_close")
    return fmt(p.price_stale ? t.sourceStaleClose : t.sourceClose, {
      date: p.price_date ?? "",
      provider: p.price_provider ?? "",
    });
  return t.sourceMissing;
}

const NO_VERDICTS: Readonly<Record<string, PositionVerdict>> = {};

function VerdictCell({
  t,
  p,
  verdict,
}: {
  t: PortfolioTexts;
  p: TSnapshotPosition;
  verdict: PositionVerdict | undefined;
}) {
  if (!verdict) return <span className="text-xs text-muted">{t.noVerdict}</span>;
  const action = verdict.action as keyof PortfolioTexts["decisionActions"] | null;
  return (
    <Link
      href={`/history/${verdict.recordId}`}
      className="inline-flex flex-wrap items-center gap-x-1.5 gap-y-0.5 rounded hover:underline focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent"
    >
      <span
        data-testid="position-verdict-action"
        data-action={verdict.action ?? ""}
        className={cx("rounded border px-1.5 py-px text-xs font-semibold whitespace-nowrap", actionTone(action))}
      >
        {action && Object.hasOwn(t.decisionActions, action)
          ? t.decisionActions[action]
          : (verdict.action ?? t.noVerdict)}
      </span>
      {verdict.score !== null ? (
        <span
          data-testid="position-verdict-score"
          data-score={verdict.score}
          className="text-xs font-medium tabular-nums"
        >
          {fmt(t.verdictScore, { score: verdict.score })}
        </span>
      ) : null}
      <time dateTime={verdict.createdAt} className="text-[11px] text-muted tabular-nums">
        <ZonedTime value={verdict.createdAt} style="short" label={false} />
      </time>
      <span className="sr-only">{fmt(t.verdictLink, { code: p.symbol })}</span>
    </Link>
  );
}

function StopCell({
  t,
  p,
  verdict,
}: {
  t: PortfolioTexts;
  p: TSnapshotPosition;
  verdict: PositionVerdict | undefined;
}) {
  if (!verdict || verdict.stop === null) return <>—</>;
  const source =
    verdict.stopSignalId !== null
      ? fmt(t.stopFromSignal, { id: verdict.stopSignalId })
      : fmt(t.stopFromReport, { id: verdict.recordId });
  return (
    <span className="inline-flex flex-wrap items-center justify-end gap-x-1.5 gap-y-0.5 max-sm:justify-start">
      <span data-testid="position-stop-value" data-value={verdict.stop} title={source}>
        {price(verdict.stop)}
      </span>
      {verdict.stopSide === "above" ? (
        <span className="text-[11px] text-muted" title={t.stopShortSideHint}>
          {t.stopShortSide}
        </span>
      ) : null}
      {verdict.belowStop ? (
        <span
          role="img"
          aria-label={fmt(t.belowStopAria, { code: p.symbol, price: price(p.last_price), stop: price(verdict.stop) })}
          data-testid="position-below-stop"
          className="rounded border border-amber-500/50 bg-amber-50 px-1.5 py-px text-xs font-semibold whitespace-nowrap text-amber-800 dark:border-amber-400/40 dark:bg-amber-950/60 dark:text-amber-300"
        >
          ⚠ {t.belowStop}
        </span>
      ) : null}
    </span>
  );
}

// At phone width (below sm) the table is one card per position (components/ui/table-cards.ts): P/L and the stop
// come first.
export function SnapshotPositions({
  t,
  snapshot,
  accountNames,
  verdicts = NO_VERDICTS,
}: {
  t: PortfolioTexts;
  snapshot: TSnapshot;
  accountNames: boolean;
  /** Each stock's latest verdict and stop, by positionKey (lib/portfolio/position-verdicts.ts). */
  verdicts?: Readonly<Record<string, PositionVerdict>>;
}) {
  const rows = snapshot.accounts.flatMap((a) => a.positions.map((p) => ({ account: a.account_name, p })));
  if (rows.length === 0) {
    return (
      <p data-testid="positions-empty" className="px-3 py-6 text-center text-sm text-muted">
        {t.positionsEmpty}
      </p>
    );
  }
  return (
    <div className="sm:overflow-x-auto">
      <table className={cx("w-full text-sm sm:min-w-[66rem]", CARD_BLOCK)} data-testid="positions">
        <thead className={cx("border-b border-line bg-subtle", CARD_HEAD)}>
          <tr>
            <th scope="col" className={TH}>
              {t.colCode}
            </th>
            {accountNames ? (
              <th scope="col" className={TH}>
                {t.colAccount}
              </th>
            ) : null}
            <th scope="col" className={cx(TH, "text-right")}>
              {t.colQuantity}
            </th>
            <th scope="col" className={cx(TH, "text-right")}>
              {t.colCostPerShare}
            </th>
            <th scope="col" className={cx(TH, "text-right")}>
              {t.colLastPrice}
            </th>
            <th scope="col" className={cx(TH, "text-right")}>
              {t.colMarketValue}
            </th>
            <th scope="col" className={cx(TH, "text-right")}>
              {t.colPnl}
            </th>
            <th scope="col" className={TH}>
              {t.colVerdict}
            </th>
            <th scope="col" className={cx(TH, "text-right")}>
              {t.colStop}
            </th>
            <th scope="col" className={TH}>
              {t.colPriceSource}
            </th>
            <th scope="col" className={TH}>
              {t.colActions}
            </th>
          </tr>
        </thead>
        <tbody className={cx("divide-y divide-line", CARD_BLOCK)}>
          {rows.map(({ account, p }) => {
            const verdict = verdicts[positionKey(p)];
            return (
              <tr
                key={`${p.account_id}:${p.market}:${p.symbol}`}
                data-testid="position-row"
                data-code={p.symbol}
                data-source={p.price_source}
                data-stale={p.price_stale ? "true" : "false"}
                data-below-stop={verdict?.belowStop ? "true" : "false"}
                className={cx(CARD_ROW, verdict?.belowStop && "bg-amber-50/60 dark:bg-amber-950/20")}
              >
                <td className={cx(TD, "font-medium tabular-nums whitespace-nowrap", CARD, WIDE, "max-sm:order-1")}>
                  {p.symbol} <span className="text-xs font-normal text-muted">{marketLabel(t, p.market)}</span>
                </td>
                {accountNames ? (
                  <td className={cx(TD, "text-xs text-muted", LABELLED, "max-sm:order-9")} data-label={t.colAccount}>
                    {account}
                  </td>
                ) : null}
                <td
                  className={cx(NUM, LABELLED, "max-sm:order-7")}
                  data-label={t.colQuantity}
                  data-testid="position-quantity"
                >
                  {quantity(p.quantity)}
                </td>
                <td
                  className={cx(NUM, LABELLED, "max-sm:order-8")}
                  data-label={t.colCostPerShare}
                  data-testid="position-avg-cost"
                >
                  {price(p.avg_cost)}
                </td>
                <td
                  className={cx(NUM, LABELLED, "max-sm:order-4")}
                  data-label={t.colLastPrice}
                  data-testid="position-last-price"
                >
                  {p.price_available ? price(p.last_price) : "—"}
                </td>
                <td
                  className={cx(NUM, LABELLED, "max-sm:order-6")}
                  data-label={t.colMarketValue}
                  data-testid="position-market-value"
                >
                  <span className="mr-1 text-xs text-muted">{p.valuation_currency}</span>
                  {money(p.market_value_base)}
                </td>
                <td
                  className={cx(
                    NUM,
                    p.price_available && pnlTone(p.unrealized_pnl_base),
                    LABELLED,
                    "max-sm:order-3 max-sm:text-base max-sm:font-semibold",
                  )}
                  data-label={t.colPnl}
                  data-testid="position-pnl"
                >
                  {p.price_available ? (
                    <>
                      {signedMoney(p.unrealized_pnl_base)}{" "}
                      <span className="text-xs">{signedPct(p.unrealized_pnl_pct)}</span>
                    </>
                  ) : (
                    "—"
                  )}
                </td>
                <td
                  className={cx(TD, LABELLED, "max-sm:order-2")}
                  data-label={t.colVerdict}
                  data-testid="position-verdict"
                >
                  <VerdictCell t={t} p={p} verdict={verdict} />
                </td>
                <td className={cx(NUM, LABELLED, "max-sm:order-5")} data-label={t.colStop} data-testid="position-stop">
                  <StopCell t={t} p={p} verdict={verdict} />
                </td>
                <td
                  className={cx(TD, "text-xs whitespace-nowrap text-muted", LABELLED, WIDE, "max-sm:order-10")}
                  data-label={t.colPriceSource}
                  data-testid="position-source"
                >
                  {sourceText(t, p)}
                </td>
                <td className={cx(TD, CARD, WIDE, "max-sm:order-11")}>
                  <AnalyzePositionButton t={t} symbol={p.symbol} accountId={p.account_id} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
