import { z } from "zod";
import { getSettings } from "@/lib/settings/settings";
import { createCsvProvider } from "./csv";
import { createEastmoneyProvider } from "./eastmoney";
import { createSampleProvider } from "./sample";
import { createTencentProvider } from "./tencent";
import {
  InvalidDataFileError,
  TransientProviderError,
  ZDailyBars,
  ZQuote,
  type CallContext,
  type MarketDataProvider,
  type ProviderName,
  type TDailyBar,
  type TFxRate,
  type TMarketSymbol,
  type TQuote,
} from "./types";
import { recordProviderCall, type HealthDataset } from "./health";
import { createYahooProvider } from "./yahoo";

// The fallback chain: providers in MARKET_DATA_SOURCES order; a failure, a timeout, an
// empty answer or a body that fails the schema falls through to the next, and every attempt is recorded.

export interface ProviderAttempt {
  provider: string;
  ok: boolean;
  /** null on success; otherwise why the chain moved on ("timeout after 8000 ms", "empty", "schema: ..."). */
  reason: string | null;
  ms: number;
  /** Transient failures retried before this outcome. */
  retries: number;
}

export interface ChainResult<T> {
  data: T;
  source: ProviderName;
  attempts: ProviderAttempt[];
}

export class MarketDataUnavailableError extends Error {
  override name = "MarketDataUnavailableError";
  constructor(
    readonly what: string,
    readonly attempts: ProviderAttempt[],
  ) {
    super(
      `no market data for ${what}: ` +
        (attempts.length === 0
          ? "no provider configured"
          : attempts.map((a) => `${a.provider} (${a.reason})`).join(", ")),
    );
  }
}

export interface ChainOptions {
  /** Providers in order; `null` entries are configured names no provider implements (skipped, recorded). */
  providers: (MarketDataProvider | { unknown: string })[];
  timeoutMs: number;
  retries?: number;
  backoffMs?: number;
}

class ProviderTimeout extends Error {
  override name = "ProviderTimeout";
}

const DEFAULT_RETRIES = 2;
const DEFAULT_BACKOFF_MS = 150;

function describe(symbol: TMarketSymbol): string {
  return `${symbol.market} ${symbol.kind} ${symbol.canonicalId ?? symbol.code}`;
}

function reasonOf(error: unknown): string {
  if (error instanceof ProviderTimeout) return error.message;
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    return `schema: ${issue ? `${issue.path.join(".") || "(root)"} ${issue.message}` : "invalid"}`;
  }
  if (error instanceof TransientProviderError) return `transient: ${error.message}`;
  return `error: ${error instanceof Error ? error.message : String(error)}`;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** One provider, under one deadline (retries included), racing the call against the abort. */
async function callWithDeadline<T>(
  work: (ctx: CallContext) => Promise<T>,
  timeoutMs: number,
  retries: number,
  backoffMs: number,
): Promise<{ value: T; retries: number }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ProviderTimeout(`timeout after ${timeoutMs} ms`)), timeoutMs);
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const value = await Promise.race([work({ signal: controller.signal }), aborted]);
        return { value, retries: attempt };
      } catch (error) {
        if (controller.signal.aborted) throw controller.signal.reason;
        // Only network errors and 5xx are worth repeating; a bad body or a 4xx will not improve.
        if (!(error instanceof TransientProviderError) || attempt >= retries)
          throw Object.assign(error as object, { retries: attempt });
        await delay(backoffMs * 2 ** attempt, controller.signal);
        if (controller.signal.aborted) throw controller.signal.reason;
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

async function runChain<T>(
  symbol: TMarketSymbol,
  what: string,
  dataset: HealthDataset,
  options: ChainOptions,
  call: (provider: MarketDataProvider, ctx: CallContext) => Promise<unknown>,
  accept: (raw: unknown) => T | null,
): Promise<ChainResult<T>> {
  const attempts: ProviderAttempt[] = [];
  for (const entry of options.providers) {
    if ("unknown" in entry) {
      attempts.push({ provider: entry.unknown, ok: false, reason: "not implemented", ms: 0, retries: 0 });
      continue;
    }
    // A provider is never called for a market or kind it does not serve.
    if (!entry.serves(symbol)) {
      attempts.push({
        provider: entry.name,
        ok: false,
        reason: `does not serve ${symbol.market} ${symbol.kind}`,
        ms: 0,
        retries: 0,
      });
      continue;
    }
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    try {
      const result = await callWithDeadline(
        (ctx) => call(entry, ctx),
        options.timeoutMs,
        options.retries ?? DEFAULT_RETRIES,
        options.backoffMs ?? DEFAULT_BACKOFF_MS,
      );
      const data = accept(result.value);
      if (data === null) {
        attempts.push({ provider: entry.name, ok: false, reason: "empty", ms: ms(), retries: result.retries });
        // An empty answer is the provider working: it has nothing for this code.
        recordProviderCall(entry.name, symbol.market, dataset, { ok: true, reason: null });
        continue;
      }
      attempts.push({ provider: entry.name, ok: true, reason: null, ms: ms(), retries: result.retries });
      recordProviderCall(entry.name, symbol.market, dataset, { ok: true, reason: null });
      return { data, source: entry.name, attempts };
    } catch (error) {
      // The user's own file exists but is broken: answering from another source would hide that.
      if (error instanceof InvalidDataFileError) throw error;
      const retries =
        typeof (error as { retries?: unknown })?.retries === "number" ? (error as { retries: number }).retries : 0;
      attempts.push({ provider: entry.name, ok: false, reason: reasonOf(error), ms: ms(), retries });
      recordProviderCall(entry.name, symbol.market, dataset, { ok: false, reason: reasonOf(error) });
    }
  }
  throw new MarketDataUnavailableError(`${what} of ${describe(symbol)}`, attempts);
}

function acceptBars(raw: unknown): TDailyBar[] | null {
  const bars = ZDailyBars.parse(raw);
  if (bars.length === 0) return null;
  // Oldest first, one bar per date, whatever order the provider used.
  const byDate = new Map(bars.map((b) => [b.date, b]));
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

function acceptQuote(raw: unknown): TQuote | null {
  return raw === null || raw === undefined ? null : ZQuote.parse(raw);
}

export function chainDailyBars(
  symbol: TMarketSymbol,
  days: number,
  options: ChainOptions,
): Promise<ChainResult<TDailyBar[]>> {
  return runChain(
    symbol,
    `${days} daily bars`,
    "daily_bars",
    options,
    (p, ctx) => p.dailyBars(symbol, days, ctx),
    (raw) => {
      const bars = acceptBars(raw);
      return bars ? bars.slice(-days) : null;
    },
  );
}

export function chainQuote(symbol: TMarketSymbol, options: ChainOptions): Promise<ChainResult<TQuote>> {
  return runChain(symbol, "quote", "quote", options, (p, ctx) => p.quote(symbol, ctx), acceptQuote);
}

/** Whether a provider in the chain holds data for the symbol that must be read fresh (see bypassesCache). */
export async function bypassesCache(symbol: TMarketSymbol, options: ChainOptions): Promise<boolean> {
  for (const entry of options.providers) {
    if ("unknown" in entry || !entry.bypassesCache || !entry.serves(symbol)) continue;
    if (await entry.bypassesCache(symbol)) return true;
  }
  return false;
}

// Providers are stateless apart from settings read per call, so one instance of each is enough.
let builtIn: Record<ProviderName, MarketDataProvider> | null = null;

/** One instance of each provider this build has, by name. */
export function builtInProviders(): Record<ProviderName, MarketDataProvider> {
  builtIn ??= {
    eastmoney: createEastmoneyProvider(),
    tencent: createTencentProvider(),
    yahoo: createYahooProvider(),
    sample: createSampleProvider({ latencyMs: () => getSettings().SAMPLE_LATENCY_MS }),
    csv: createCsvProvider(),
  };
  return builtIn;
}

/** The chain as the settings configure it (MARKET_DATA_SOURCES, MARKET_DATA_TIMEOUT_MS). */
export function configuredChain(): ChainOptions {
  const settings = getSettings();
  const all = builtInProviders();
  return {
    providers: settings.MARKET_DATA_SOURCES.map((name) =>
      Object.hasOwn(all, name) ? all[name as ProviderName] : { unknown: name },
    ),
    timeoutMs: settings.MARKET_DATA_TIMEOUT_MS,
  };
}

/**
 * The latest rate of one unit of `currency` in CNY from the first provider in the chain that has FX (portfolio FX refresh,
 * docs/api.md §12.1.13); providers without FX are skipped. Throws MarketDataUnavailableError when none answers.
 */
export async function chainFxRate(currency: string, options: ChainOptions): Promise<ChainResult<TFxRate>> {
  const attempts: ProviderAttempt[] = [];
  for (const entry of options.providers) {
    if ("unknown" in entry || !entry.fxRate) continue;
    const provider = entry;
    const started = performance.now();
    try {
      const result = await callWithDeadline(
        (ctx) => provider.fxRate!(currency, ctx),
        options.timeoutMs,
        options.retries ?? DEFAULT_RETRIES,
        options.backoffMs ?? DEFAULT_BACKOFF_MS,
      );
      const ms = Math.round(performance.now() - started);
      if (!result.value || !(result.value.rate > 0)) {
        attempts.push({ provider: entry.name, ok: false, reason: "empty", ms, retries: result.retries });
        recordProviderCall(entry.name, "fx", "fx", { ok: true, reason: null });
        continue;
      }
      attempts.push({ provider: entry.name, ok: true, reason: null, ms, retries: result.retries });
      recordProviderCall(entry.name, "fx", "fx", { ok: true, reason: null });
      return { data: result.value, source: entry.name, attempts };
    } catch (error) {
      const retries =
        typeof (error as { retries?: unknown })?.retries === "number" ? (error as { retries: number }).retries : 0;
      attempts.push({
        provider: entry.name,
        ok: false,
        reason: reasonOf(error),
        ms: Math.round(performance.now() - started),
        retries,
      });
      recordProviderCall(entry.name, "fx", "fx", { ok: false, reason: reasonOf(error) });
    }
  }
  throw new MarketDataUnavailableError(`FX ${currency}/CNY`, attempts);
}

/** The configured providers that can fetch FX rates (empty: FX refresh is off). */
export function fxProviders(options: ChainOptions): string[] {
  return options.providers
    .filter((p): p is MarketDataProvider => !("unknown" in p) && typeof p.fxRate === "function")
    .map((p) => p.name);
}
