import Link from "next/link";
import { fmt } from "@/components/settings/format";
import { pageMetadata } from "@/components/shell/coming-soon-page";
import { AccountActiveToggle, NewAccountForm } from "@/components/portfolio/account-controls";
import { CashEntryForm, CorporateActionForm } from "@/components/portfolio/cash-and-actions";
import { ActionsTable, CashTable } from "@/components/portfolio/event-tables";
import { marketLabel, type PortfolioTexts } from "@/components/portfolio/format";
import { RiskControls, RiskDetails, RiskKpis, type CostMethod } from "@/components/portfolio/risk-panel";
import { FxRefreshButton } from "@/components/portfolio/fx-refresh";
import { FxBadge, SnapshotCards, SnapshotPositions } from "@/components/portfolio/snapshot-panel";
import { TradesTable } from "@/components/portfolio/tables";
import { BrokerImportForm } from "@/components/portfolio/broker-import";
import { TradeForm } from "@/components/portfolio/trade-entry";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import { now } from "@/lib/clock";
import { isCalendarDay } from "@/lib/history/schemas";
import { getI18n } from "@/lib/i18n/locale";
import { brokerList } from "@/lib/portfolio/broker-csv";
import { listCashEntries, listCorporateActions } from "@/lib/portfolio/events";
import { positionVerdicts, type PositionVerdict } from "@/lib/portfolio/position-verdicts";
import { portfolioRisk } from "@/lib/portfolio/risk";
import type { TPortfolioRisk } from "@/lib/portfolio/risk-schema";
import type { TAccount } from "@/lib/portfolio/schemas";
import { snapshotOf } from "@/lib/portfolio/snapshot";
import type { TSnapshot } from "@/lib/portfolio/snapshot-schema";
import { listAccounts, listTrades } from "@/lib/portfolio/store";
import { valuePortfolio } from "@/lib/portfolio/valuation";
import { localDay, serviceTimeZone } from "@/lib/time/zoned-time";
import { firstParam, type SearchParams } from "@/lib/http/page-query";

export const dynamic = "force-dynamic";
export const generateMetadata = () => pageMetadata("portfolio");

type Outcome<T> = { value: T } | { error: string };

/** A read the page shows in place of its panel when it fails (the snapshot's banner, the risk panel's degraded note). */
function settle<T>(promise: Promise<T>): Promise<Outcome<T>> {
  return promise.then(
    (value) => ({ value }),
    (error: Error) => ({ error: error.message }),
  );
}
const TRADES_PER_PAGE = 20;
const EVENTS_SHOWN = 20;

interface View {
  /** null: all active accounts together. */
  account: TAccount | null;
  costMethod: CostMethod;
  asOf: string;
  page: number;
}

/** The URL's choices; a value that does not parse (or names no account) is dropped and named. */
function readView(params: SearchParams, accounts: TAccount[], today: string): { view: View; invalid: string[] } {
  const invalid: string[] = [];
  const accountParam = firstParam(params["account"]);
  let account: TAccount | null = accounts.find((a) => a.is_active) ?? accounts[0] ?? null;
  if (accountParam === "all") account = null;
  else if (accountParam !== undefined) {
    const found = /^\d+$/.test(accountParam) ? accounts.find((a) => a.id === Number(accountParam)) : undefined;
    if (found) account = found;
    else invalid.push("account");
  }
  const methodParam = firstParam(params["cost_method"]);
  let costMethod: CostMethod = "fifo";
  if (methodParam === "fifo" || methodParam === "avg") costMethod = methodParam;
  else if (methodParam !== undefined) invalid.push("cost_method");
  const asOfParam = firstParam(params["as_of"]);
  let asOf = today;
  if (asOfParam !== undefined) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(asOfParam) && isCalendarDay(asOfParam)) asOf = asOfParam;
    else invalid.push("as_of");
  }
  const pageParam = firstParam(params["page"]);
  let page = 1;
  if (pageParam !== undefined) {
    if (/^\d+$/.test(pageParam) && Number(pageParam) >= 1) page = Number(pageParam);
    else invalid.push("page");
  }
  return { view: { account, costMethod, asOf, page }, invalid };
}

function hrefOf(
  view: View,
  today: string,
  changes: Partial<{ account: number | "all"; costMethod: CostMethod; asOf: string; page: number }>,
): string {
  const params = new URLSearchParams();
  const account = changes.account ?? (view.account ? view.account.id : "all");
  params.set("account", String(account));
  const method = changes.costMethod ?? view.costMethod;
  if (method !== "fifo") params.set("cost_method", method);
  const asOf = changes.asOf ?? view.asOf;
  if (asOf !== today) params.set("as_of", asOf);
  const page = changes.page ?? 1;
  if (page > 1) params.set("page", String(page));
  return `/portfolio?${params.toString()}`;
}

function AccountChips({
  t,
  accounts,
  view,
  today,
}: {
  t: PortfolioTexts;
  accounts: TAccount[];
  view: View;
  today: string;
}) {
  const chip = (active: boolean) =>
    cx(
      "inline-flex h-7 shrink-0 items-center gap-1.5 rounded-md border px-2.5 text-sm font-medium whitespace-nowrap",
      "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent",
      active ? "border-accent/40 bg-accent-soft text-accent" : "border-line bg-surface hover:bg-subtle",
    );
  return (
    <nav aria-label={t.accountsNav} className="flex flex-wrap gap-1.5">
      {accounts.map((a) => {
        const current = view.account?.id === a.id;
        return (
          <Link
            key={a.id}
            href={hrefOf(view, today, { account: a.id })}
            aria-current={current ? "page" : undefined}
            className={chip(current)}
            data-testid="account-chip"
            data-account-id={a.id}
          >
            {a.name}
            {!a.is_active ? (
              <span className="rounded border border-line bg-subtle px-1 text-[11px] leading-4 text-muted">
                {t.inactive}
              </span>
            ) : null}
          </Link>
        );
      })}
      <Link
        href={hrefOf(view, today, { account: "all" })}
        aria-current={view.account === null ? "page" : undefined}
        className={chip(view.account === null)}
      >
        {t.allAccounts}
      </Link>
    </nav>
  );
}

// The Portfolio page. Accounts, positions, trades and the risk report are read on the server through
// lib/portfolio (the functions behind the Portfolio API); the URL holds the account, cost method, as_of and the trades
// page. Account, trade and import writes run in the browser against the API and refresh the page. Each
// position carries its stock's latest verdict and stop (lib/portfolio/position-verdicts.ts), read after the snapshot.
export default async function PortfolioPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const [{ locale, t: dict }, params] = await Promise.all([getI18n(), searchParams]);
  const t = dict.portfolioUi;
  const today = localDay(now(), serviceTimeZone());
  const accounts = (await listAccounts({ include_inactive: true })).accounts;
  const { view, invalid } = readView(params, accounts, today);
  const accountId = view.account?.id;
  const query = { account_id: accountId, as_of: view.asOf, cost_method: view.costMethod };
  const [snapshot, trades, risk, cash, actions] = await Promise.all([
    accounts.length > 0 ? settle<TSnapshot>(valuePortfolio(query).then(snapshotOf)) : Promise.resolve(null),
    accountId !== undefined
      ? listTrades({ account_id: accountId, page: view.page, page_size: TRADES_PER_PAGE })
      : Promise.resolve(null),
    accounts.length > 0 ? settle<TPortfolioRisk>(portfolioRisk(query)) : Promise.resolve(null),
    accountId !== undefined
      ? listCashEntries({ account_id: accountId, page_size: EVENTS_SHOWN })
      : Promise.resolve(null),
    accountId !== undefined
      ? listCorporateActions({ account_id: accountId, page_size: EVENTS_SHOWN })
      : Promise.resolve(null),
  ]);

  // The verdicts are extra: a failure leaves the positions without them.
  const verdicts: Record<string, PositionVerdict> =
    snapshot && "value" in snapshot
      ? await positionVerdicts(snapshot.value.accounts.flatMap((a) => a.positions)).catch(() => ({}))
      : {};

  const hidden: Record<string, string> = { account: accountId === undefined ? "all" : String(accountId) };
  if (view.costMethod !== "fifo") hidden.cost_method = view.costMethod;

  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{dict.pages.portfolio.title}</h1>
      <p className="mt-1 text-sm text-muted">{t.intro}</p>

      <div className="mt-4 space-y-4">
        <Panel>
          <div className="border-b border-line px-3 py-2">
            <h2 className="text-sm font-semibold">{t.accountsTitle}</h2>
          </div>
          <div className="space-y-3 px-3 py-3">
            {accounts.length === 0 ? (
              <p data-testid="accounts-empty" className="text-sm text-muted">
                {t.accountsEmpty}
              </p>
            ) : (
              <>
                <AccountChips t={t} accounts={accounts} view={view} today={today} />
                {view.account ? (
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <p className="text-sm text-muted tabular-nums" data-testid="account-meta">
                      <span className="mr-2 font-medium text-fg">{view.account.name}</span>
                      {fmt(t.accountMeta, {
                        market: marketLabel(t, view.account.market),
                        currency: view.account.base_currency,
                        trades: view.account.trade_count,
                        positions: view.account.position_count,
                      })}
                    </p>
                    <AccountActiveToggle t={t} account={view.account} />
                  </div>
                ) : (
                  <p className="text-sm text-muted">{t.allAccountsHint}</p>
                )}
              </>
            )}
            {invalid.length > 0 ? (
              <p role="alert" className="text-xs font-medium text-amber-700 dark:text-amber-400">
                {fmt(t.invalidQuery, { fields: invalid.join(", ") })}
              </p>
            ) : null}
            <details className="group rounded-md border border-line" open={accounts.length === 0}>
              <summary className="cursor-pointer px-2.5 py-1.5 text-sm font-medium select-none">{t.newAccount}</summary>
              <div className="border-t border-line px-2.5 py-2.5">
                <NewAccountForm t={t} />
              </div>
            </details>
          </div>
        </Panel>

        {snapshot ? (
          <Panel>
            <div className="flex flex-wrap items-end justify-between gap-3 border-b border-line px-3 py-2">
              <h2 className="flex flex-wrap items-center gap-2 text-sm font-semibold">
                {t.snapshotTitle}
                {"value" in snapshot ? (
                  <>
                    <span className="text-xs font-normal text-muted tabular-nums">
                      {fmt(t.valuationTitle, {
                        method: t.costMethods[snapshot.value.cost_method],
                        date: snapshot.value.as_of,
                      })}
                    </span>
                    <FxBadge t={t} stale={snapshot.value.fx_stale} />
                    <FxRefreshButton t={t} accountId={accountId ?? null} />
                  </>
                ) : null}
              </h2>
              <RiskControls
                t={t}
                costMethod={view.costMethod}
                asOf={view.asOf}
                hidden={hidden}
                hrefFor={(m) => hrefOf(view, today, { costMethod: m, page: view.page })}
              />
            </div>
            {"value" in snapshot ? (
              <div
                data-testid="snapshot-panel"
                data-cost-method={snapshot.value.cost_method}
                data-as-of={snapshot.value.as_of}
                data-currency={snapshot.value.currency}
              >
                <SnapshotCards t={t} snapshot={snapshot.value} />
                <div className="border-t border-line">
                  <SnapshotPositions
                    t={t}
                    snapshot={snapshot.value}
                    accountNames={view.account === null}
                    verdicts={verdicts}
                  />
                </div>
              </div>
            ) : (
              <p role="alert" className="px-3 py-4 text-sm font-medium text-red-700 dark:text-red-400">
                {fmt(t.snapshotFailed, { message: snapshot.error })}
              </p>
            )}
          </Panel>
        ) : null}

        {risk ? (
          <Panel>
            <div className="border-b border-line px-3 py-2">
              <h2 className="text-sm font-semibold">{t.riskTitle}</h2>
            </div>
            {"value" in risk ? (
              <div data-testid="risk-panel" data-cost-method={risk.value.cost_method} data-as-of={risk.value.as_of}>
                <RiskKpis t={t} risk={risk.value} />
                <RiskDetails t={t} risk={risk.value} />
              </div>
            ) : (
              <p role="alert" className="px-3 py-4 text-sm font-medium text-amber-700 dark:text-amber-400">
                {fmt(t.riskDegraded, { message: risk.error })}
              </p>
            )}
          </Panel>
        ) : null}

        {view.account ? (
          <>
            <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
              <Panel>
                <div className="border-b border-line px-3 py-2">
                  <h2 className="text-sm font-semibold">{t.tradeTitle}</h2>
                </div>
                <TradeForm t={t} search={dict.analyzeUi} locale={locale} accountId={view.account.id} today={today} />
              </Panel>
              <Panel>
                <div className="border-b border-line px-3 py-2">
                  <h2 className="text-sm font-semibold">{t.importTitle}</h2>
                </div>
                <BrokerImportForm t={t} accountId={view.account.id} brokers={brokerList().brokers} />
              </Panel>
            </div>
            <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
              <Panel>
                <div className="flex items-baseline justify-between gap-2 border-b border-line px-3 py-2">
                  <h2 className="text-sm font-semibold">{t.cashTitle}</h2>
                  {cash ? (
                    <span className="text-xs text-muted tabular-nums">{fmt(t.tradesCount, { total: cash.total })}</span>
                  ) : null}
                </div>
                <CashEntryForm
                  t={t}
                  accountId={view.account.id}
                  baseCurrency={view.account.base_currency}
                  today={today}
                />
                {cash ? <CashTable t={t} list={cash} /> : null}
              </Panel>
              <Panel>
                <div className="flex items-baseline justify-between gap-2 border-b border-line px-3 py-2">
                  <h2 className="text-sm font-semibold">{t.actionsTitle}</h2>
                  {actions ? (
                    <span className="text-xs text-muted tabular-nums">
                      {fmt(t.tradesCount, { total: actions.total })}
                    </span>
                  ) : null}
                </div>
                <CorporateActionForm t={t} accountId={view.account.id} today={today} />
                {actions ? <ActionsTable t={t} list={actions} /> : null}
              </Panel>
            </div>
            {trades ? (
              <Panel>
                <div className="border-b border-line px-3 py-2">
                  <h2 className="text-sm font-semibold">
                    {t.tradesTitle}
                    <span className="ml-2 text-xs font-normal text-muted tabular-nums" data-testid="trades-total">
                      {fmt(t.tradesCount, { total: trades.total })}
                    </span>
                  </h2>
                </div>
                <TradesTable
                  t={t}
                  trades={trades.items}
                  total={trades.total}
                  page={trades.page}
                  pageSize={trades.page_size}
                  href={(p) => hrefOf(view, today, { page: p })}
                />
              </Panel>
            ) : null}
          </>
        ) : null}
      </div>
    </div>
  );
}
