import { failureReason } from "@/lib/analysis/failure-reason";
import { resolveSingleTarget } from "@/lib/analysis/request";
import { ApiError } from "@/lib/errors/api-error";
import { getDailyBars, getPriceSeries, MarketDataUnavailableError } from "@/lib/market";
import { isoInMarketZone } from "@/lib/market/market-time";
import type { TResolvedSymbol } from "@/lib/market/symbols";
import type { TStockHistoryResponse, TStockQuoteResponse } from "./schemas";

// The quote and daily bars of any code, read through the same caches and provider chain as an analysis, so the
// numbers here are the ones a report made now would show.

function identity(symbol: TResolvedSymbol) {
  return {
    code: symbol.displayCode,
    name: symbol.name ?? null,
    market: symbol.market,
    asset_type: symbol.kind,
  };
}

/** No data: 503 when the sources could not be asked, 404 when they answered without data for the code. */
function noData(error: unknown, symbol: TResolvedSymbol): never {
  if (!(error instanceof MarketDataUnavailableError)) throw error;
  const reason = failureReason(error, symbol);
  const extra = { reason_code: reason.code, reason_params: reason.params };
  if (reason.code === "market_data_unavailable") throw ApiError.of("service_unavailable", error.message, extra);
  throw ApiError.of("not_found", error.message, extra);
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

export async function stockQuote(code: string): Promise<TStockQuoteResponse> {
  const symbol = resolveSingleTarget(code);
  const series = await getPriceSeries(symbol, 2).catch((error: unknown) => noData(error, symbol));
  const last = series.bars.at(-1);
  const current = series.current;
  if (!last || !current) return noData(new MarketDataUnavailableError(symbol.displayCode, []), symbol);
  const previous = series.bars.at(-2)?.close ?? series.quote?.prev_close ?? null;
  const change = previous === null ? (series.quote?.change ?? null) : round(current.price - previous);
  const time = current.time === null ? null : isoInMarketZone(current.time, symbol.market);
  const id = identity(symbol);
  return {
    ...id,
    price: current.price,
    change,
    change_pct: current.change_pct,
    open: last.open,
    high: last.high,
    low: last.low,
    prev_close: previous,
    volume: last.volume,
    amount: last.amount,
    date: current.date,
    time,
    basis: current.basis,
    source: current.source,
    is_sample_data: current.source === "sample",
    stock_code: id.code,
    stock_name: id.name,
    current_price: current.price,
    change_percent: current.change_pct,
    update_time: time,
  };
}

export async function stockHistory(code: string, days: number): Promise<TStockHistoryResponse> {
  const symbol = resolveSingleTarget(code);
  const result = await getDailyBars(symbol, days).catch((error: unknown) => noData(error, symbol));
  const id = identity(symbol);
  return {
    ...id,
    period: "daily",
    source: result.source,
    is_sample_data: result.source === "sample",
    data: result.bars.map((bar, index) => {
      const before = result.bars[index - 1];
      return {
        date: bar.date,
        open: bar.open,
        high: bar.high,
        low: bar.low,
        close: bar.close,
        volume: bar.volume,
        amount: bar.amount,
        change_percent: before ? round((bar.close / before.close - 1) * 100) : null,
      };
    }),
    stock_code: id.code,
    stock_name: id.name,
  };
}
