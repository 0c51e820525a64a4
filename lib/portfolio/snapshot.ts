import { accountMarket } from "./store";
import type { TAccountSnapshot, TSnapshot, TSnapshotPosition, TSnapshotQuery } from "./snapshot-schema";
import { valuePortfolio, type AccountBook, type Valuation } from "./valuation";

const money = (v: number) => Math.round(v * 100) / 100;
const precise = (v: number) => Math.round(v * 1e6) / 1e6;

function sumIn(map: Map<string, number>, base: string, valuation: Valuation): number {
  let total = 0;
  for (const [currency, amount] of map) total += valuation.fx.convert(amount, currency, base);
  return total;
}

function accountSnapshot(book: AccountBook, valuation: Valuation): TAccountSnapshot {
  const base = book.baseCurrency;
  const fx = valuation.fx;
  const currencies = new Set([...book.cash.keys(), ...book.holdings.map((h) => h.currency)]);
  const positions: TSnapshotPosition[] = book.holdings
    .filter((h) => h.quantity > 0)
    .map((h) => {
      const totalCost = h.quantity * h.costPerShare;
      const marketValueBase = fx.convert(h.marketValue, h.currency, base);
      const unrealizedBase = fx.convert(h.marketValue - totalCost, h.currency, base);
      return {
        account_id: h.accountId,
        symbol: h.symbol,
        market: h.market,
        currency: h.currency,
        quantity: h.quantity,
        avg_cost: precise(h.costPerShare),
        total_cost: money(totalCost),
        last_price: h.lastPrice ?? precise(h.costPerShare),
        market_value: money(h.marketValue),
        market_value_base: money(marketValueBase),
        unrealized_pnl_base: money(unrealizedBase),
        unrealized_pnl_pct:
          totalCost > 0 && h.lastPrice !== null ? money(((h.marketValue - totalCost) / totalCost) * 100) : null,
        realized_pnl_base: money(fx.convert(h.realized + h.dividends, h.currency, base)),
        valuation_currency: base,
        price_source: h.priceSource,
        price_provider: h.priceProvider,
        price_date: h.priceDate,
        price_stale: h.priceStale,
        price_available: h.lastPrice !== null,
      };
    })
    .sort((a, b) => b.market_value_base - a.market_value_base);
  const realized = book.holdings.reduce((sum, h) => sum + fx.convert(h.realized + h.dividends, h.currency, base), 0);
  const unrealized = positions.reduce((sum, p) => sum + p.unrealized_pnl_base, 0);
  const marketValue = positions.reduce((sum, p) => sum + p.market_value_base, 0);
  const cash = sumIn(book.cash, base, valuation);
  return {
    account_id: book.account.id,
    account_name: book.account.name,
    owner_id: book.account.ownerId,
    broker: book.account.broker,
    market: accountMarket(book.account),
    base_currency: base,
    as_of: valuation.asOf,
    cost_method: valuation.costMethod,
    total_cash: money(cash),
    total_market_value: money(marketValue),
    total_equity: money(cash + marketValue),
    realized_pnl: money(realized),
    unrealized_pnl: money(unrealized),
    fee_total: money(sumIn(book.fees, base, valuation)),
    tax_total: money(sumIn(book.taxes, base, valuation)),
    fx_stale: [...currencies].some((c) => fx.isStale(c, base)),
    positions,
  };
}

/** The snapshot of a valuation (shared with callers that already valued the portfolio). */
export function snapshotOf(valuation: Valuation): TSnapshot {
  const accounts = valuation.books.map((book) => accountSnapshot(book, valuation));
  const to = valuation.currency;
  const sum = (
    key: "total_cash" | "total_market_value" | "realized_pnl" | "unrealized_pnl" | "fee_total" | "tax_total",
  ) => money(accounts.reduce((total, a) => total + valuation.fx.convert(a[key], a.base_currency, to), 0));
  const cash = sum("total_cash");
  const marketValue = sum("total_market_value");
  return {
    as_of: valuation.asOf,
    cost_method: valuation.costMethod,
    currency: to,
    account_count: accounts.length,
    total_cash: cash,
    total_market_value: marketValue,
    total_equity: money(cash + marketValue),
    realized_pnl: sum("realized_pnl"),
    unrealized_pnl: sum("unrealized_pnl"),
    fee_total: sum("fee_total"),
    tax_total: sum("tax_total"),
    fx_stale: accounts.some((a) => a.fx_stale || valuation.fx.isStale(a.base_currency, to)),
    accounts,
  };
}

// GET /api/v1/portfolio/snapshot – docs/api.md §12.1.5
export async function portfolioSnapshot(query: TSnapshotQuery): Promise<TSnapshot> {
  return snapshotOf(await valuePortfolio(query));
}
