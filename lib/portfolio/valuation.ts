import type {
  PortfolioAccount,
  PortfolioCashEntry,
  PortfolioCorporateAction,
  PortfolioTrade,
} from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/settings/settings";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { getPriceSeries, type OnePrice, type TDailyBar } from "@/lib/market";
import { isTradingDay, previousTradingDay } from "@/lib/market/calendar";
import { lastClosedTradingDay, latestTradingDay } from "@/lib/market/market-time";
import type { TMarket } from "@/lib/market/symbols";
import { localDay, serviceTimeZone } from "@/lib/time/zoned-time";
import { loadFx, type FxTable } from "./fx";
import { foldTrades, type LotAction, type LotTrade } from "./lots";
import { getAccountOrThrow, lotAction, resolveTradeSymbol } from "./store";

// The one valuation of the portfolio at a date (docs/api.md §12.1.5): each account's events up to as_of replayed (cash
// ledger, trades by FIFO or average cost, dividends and splits), every open position priced from the one-price series (the quote when it
// stands for the session, else the last close on or before as_of), and money converted to the account's base currency.
// The snapshot and the risk report both read it, so their numbers agree.

export type CostMethod = "fifo" | "avg";
export const PRICE_BARS = 250;

export type PriceSource = "realtime_quote" | "history_close" | "missing";

export interface ValuedPosition {
  accountId: number;
  targetKey: string;
  symbol: string;
  market: string;
  /** The trades' currency (the listing currency unless a trade named another). */
  currency: string;
  quantity: number;
  /** Per share by the cost method, in `currency`. */
  costPerShare: number;
  realized: number;
  dividends: number;
  lastPrice: number | null;
  priceDate: string | null;
  priceSource: PriceSource;
  priceProvider: string | null;
  priceStale: boolean;
  /** In `currency`; at cost when the price is missing. */
  marketValue: number;
  trades: LotTrade[];
  actions: LotAction[];
  /** The one-price series up to as_of (final bars plus the quote's bar). */
  bars: TDailyBar[];
  priceError: string | null;
}

export interface AccountBook {
  account: PortfolioAccount;
  baseCurrency: string;
  /** Every target the account traded up to as_of (closed ones too: their realized P&L counts). */
  holdings: ValuedPosition[];
  /** Cash by currency: ledger in − out − buys + sells − fees − taxes + dividends. */
  cash: Map<string, number>;
  fees: Map<string, number>;
  taxes: Map<string, number>;
}

export interface Valuation {
  asOf: string;
  costMethod: CostMethod;
  /** Currency of the totals: the account's base for one account, PORTFOLIO_BASE_CURRENCY for all. */
  currency: string;
  accountId: number | null;
  books: AccountBook[];
  fx: FxTable;
}

export function costMethodOf(value: string | undefined): CostMethod {
  const method = (value ?? "fifo").trim().toLowerCase();
  if (method !== "fifo" && method !== "avg")
    throw ApiError.of("validation_error", `cost_method must be fifo or avg (got ${value})`);
  return method;
}

export function today(): string {
  return localDay(now(), serviceTimeZone());
}

function add(map: Map<string, number>, currency: string, amount: number): void {
  map.set(currency, (map.get(currency) ?? 0) + amount);
}

interface PriceInfo {
  bars: TDailyBar[];
  current: OnePrice | null;
  error: string | null;
  /** The market's session that a price of as_of should belong to (the last closed one when as_of is today or later). */
  session: string | null;
  /** The market's trading day now: only a quote of this day is live. */
  liveDay: string | null;
}

/** The session a valuation on `asOf` should price at: asOf's own (or the one before a holiday), never one not closed yet. */
function sessionFor(market: TMarket, asOf: string, at: Date): string {
  const own = isTradingDay(market, asOf) ? asOf : previousTradingDay(market, asOf);
  const closed = lastClosedTradingDay(market, at);
  return own < closed ? own : closed;
}

async function priceSeries(stockCode: string, asOf: string): Promise<PriceInfo> {
  const symbol = resolveTradeSymbol(stockCode);
  const at = now();
  const session = sessionFor(symbol.market, asOf, at);
  const liveDay = latestTradingDay(symbol.market, at);
  try {
    const series = await getPriceSeries(symbol, PRICE_BARS);
    return { bars: series.bars.filter((b) => b.date <= asOf), current: series.current, error: null, session, liveDay };
  } catch (error) {
    return { bars: [], current: null, error: (error as Error).message, session, liveDay };
  }
}

/** The price of a position at as_of and where it comes from (docs/api.md §12.1.5 price_source). */
export function priceAt(
  info: PriceInfo,
  asOf: string,
): Pick<ValuedPosition, "lastPrice" | "priceDate" | "priceSource" | "priceProvider" | "priceStale"> {
  const bar = info.bars.at(-1);
  if (!bar) return { lastPrice: null, priceDate: null, priceSource: "missing", priceProvider: null, priceStale: false };
  // A quote is live only on the market's trading day now; a file's last row dressed as a quote is a close.
  const fromQuote =
    info.current !== null &&
    info.current.basis === "quote" &&
    info.current.date === bar.date &&
    bar.date === info.liveDay;
  return {
    lastPrice: bar.close,
    priceDate: bar.date,
    priceSource: fromQuote ? "realtime_quote" : "history_close",
    priceProvider: fromQuote ? info.current!.source : (bar.source ?? null),
    priceStale: info.session !== null ? bar.date < info.session : bar.date < asOf,
  };
}

function lotTrade(row: PortfolioTrade): LotTrade {
  return {
    id: row.id,
    side: row.side as LotTrade["side"],
    quantity: row.quantity,
    price: row.price,
    fee: row.fee,
    tax: row.tax,
    tradeDate: row.tradeDate,
  };
}

/** Replays one account's ledger and trades into cash flows and trade groups (prices are filled in by the caller). */
function replayAccount(
  account: PortfolioAccount,
  trades: readonly PortfolioTrade[],
  ledger: readonly PortfolioCashEntry[],
): Omit<AccountBook, "holdings"> & { groups: Map<string, PortfolioTrade[]> } {
  const cash = new Map<string, number>();
  for (const entry of ledger) add(cash, entry.currency, entry.direction === "in" ? entry.amount : -entry.amount);
  const fees = new Map<string, number>();
  const taxes = new Map<string, number>();
  const groups = new Map<string, PortfolioTrade[]>();
  for (const t of trades) {
    const gross = t.quantity * t.price;
    add(cash, t.currency, t.side === "buy" ? -gross - t.fee - t.tax : gross - t.fee - t.tax);
    add(fees, t.currency, t.fee);
    add(taxes, t.currency, t.tax);
    groups.set(t.targetKey, [...(groups.get(t.targetKey) ?? []), t]);
  }
  return { account, baseCurrency: account.currency, cash, fees, taxes, groups };
}

/** GET /snapshot and GET /risk: the accounts (one, or every active one) valued at as_of. */
export async function valuePortfolio(query: {
  account_id?: number;
  as_of?: string;
  cost_method?: string;
}): Promise<Valuation> {
  const costMethod = costMethodOf(query.cost_method);
  const asOf = query.as_of ?? today();
  const one = query.account_id !== undefined ? await getAccountOrThrow(query.account_id) : null;
  const accounts = one
    ? [one]
    : await db().portfolioAccount.findMany({ where: { active: true }, orderBy: { id: "asc" } });
  const ids = accounts.map((a) => a.id);
  const [trades, ledger, corporateActions] = await Promise.all([
    db().portfolioTrade.findMany({
      where: { accountId: { in: ids }, tradeDate: { lte: asOf } },
      orderBy: [{ tradeDate: "asc" }, { id: "asc" }],
    }),
    db().portfolioCashEntry.findMany({ where: { accountId: { in: ids }, eventDate: { lte: asOf } } }),
    db().portfolioCorporateAction.findMany({ where: { accountId: { in: ids }, effectiveDate: { lte: asOf } } }),
  ]);
  const actionsOf = (accountId: number, targetKey: string): PortfolioCorporateAction[] =>
    corporateActions.filter((a) => a.accountId === accountId && a.targetKey === targetKey);
  const fx = await loadFx(asOf);

  const prices = new Map<string, Promise<PriceInfo>>();
  const books: AccountBook[] = [];
  for (const account of accounts) {
    const replay = replayAccount(
      account,
      trades.filter((t) => t.accountId === account.id),
      ledger.filter((e) => e.accountId === account.id),
    );
    const holdings: ValuedPosition[] = [];
    for (const [targetKey, rows] of replay.groups) {
      const lots = rows.map(lotTrade);
      const actions: LotAction[] = actionsOf(account.id, targetKey).map(lotAction);
      const state = foldTrades(lots, actions);
      const last = rows.at(-1)!;
      if (state.quantity > 0 && !prices.has(targetKey)) prices.set(targetKey, priceSeries(last.stockCode, asOf));
      const info: PriceInfo =
        state.quantity > 0
          ? await prices.get(targetKey)!
          : { bars: [], current: null, error: null, session: null, liveDay: null };
      const costPerShare = (costMethod === "fifo" ? state.fifoCost : state.avgCost) ?? 0;
      const price = priceAt(info, asOf);
      if (state.dividends) add(replay.cash, last.currency, state.dividends);
      holdings.push({
        accountId: account.id,
        targetKey,
        symbol: last.stockCode,
        market: last.market,
        currency: last.currency,
        quantity: state.quantity,
        costPerShare,
        realized: costMethod === "fifo" ? state.realizedFifo : state.realizedAvg,
        dividends: state.dividends,
        ...price,
        marketValue: state.quantity * (price.lastPrice ?? costPerShare),
        trades: lots,
        actions,
        bars: info.bars,
        priceError: info.error,
      });
    }
    books.push({
      account,
      baseCurrency: replay.baseCurrency,
      holdings,
      cash: replay.cash,
      fees: replay.fees,
      taxes: replay.taxes,
    });
  }
  return {
    asOf,
    costMethod,
    currency: one ? one.currency : getSettings().PORTFOLIO_BASE_CURRENCY,
    accountId: one?.id ?? null,
    books,
    fx,
  };
}
