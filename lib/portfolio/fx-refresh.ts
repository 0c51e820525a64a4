import { z } from "zod";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { chainFxRate, configuredChain, fxProviders } from "@/lib/market";
import { settingsRates } from "./fx";
import { ZDay } from "./schemas";
import { getAccountOrThrow } from "./store";
import { today } from "./valuation";
import { DB_ID_MAX } from "@/lib/db/id-range";

// POST /portfolio/fx/refresh (docs/api.md §12.1.13): the rates of every currency the accounts use (base currencies, trades,
// cash, corporate actions) fetched to CNY from the market-data providers (yahoo online, sample offline), stored with their
// date. A pair that fails keeps its last stored rate (stale_count) or has none (error_count).

export const ZFxRefreshQuery = z.object({
  account_id: z.coerce
    .number()
    .int()
    .positive()
    .max(DB_ID_MAX)
    .optional()
    .describe("Only this account's currencies (default every active account)"),
  as_of: ZDay.optional().describe(
    "The day staleness is judged against (default today); providers give their latest rate",
  ),
});
export type TFxRefreshQuery = z.infer<typeof ZFxRefreshQuery>;

export const ZFxRefresh = z
  .object({
    as_of: z.string(),
    account_count: z.number().int(),
    refresh_enabled: z.boolean(),
    disabled_reason: z.string().nullable(),
    pair_count: z.number().int().describe("Currencies other than CNY the accounts use, each refreshed against CNY"),
    updated_count: z.number().int(),
    stale_count: z
      .number()
      .int()
      .describe("Failed now; the last stored rate stays in use (stale once older than 3 days)"),
    error_count: z.number().int().describe("Failed with no stored rate"),
    manual_override: z
      .array(z.string())
      .describe("Currencies PORTFOLIO_FX_RATES sets: they override the fetched rates"),
    pairs: z.array(
      z.object({
        currency: z.string(),
        quote_currency: z.literal("CNY"),
        status: z.enum(["updated", "stale", "error"]),
        rate: z.number().nullable(),
        rate_date: z.string().nullable(),
        source: z.string().nullable(),
        error: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "PortfolioFxRefreshResponse" });
export type TFxRefresh = z.infer<typeof ZFxRefresh>;

async function currenciesOf(accountIds: number[]): Promise<string[]> {
  const where = { accountId: { in: accountIds } };
  const [accounts, trades, cash, actions] = await Promise.all([
    db().portfolioAccount.findMany({ where: { id: { in: accountIds } }, select: { currency: true } }),
    db().portfolioTrade.findMany({ where, select: { currency: true }, distinct: ["currency"] }),
    db().portfolioCashEntry.findMany({ where, select: { currency: true }, distinct: ["currency"] }),
    db().portfolioCorporateAction.findMany({ where, select: { currency: true }, distinct: ["currency"] }),
  ]);
  const all = new Set([...accounts, ...trades, ...cash, ...actions].map((r) => r.currency));
  all.delete("CNY");
  return [...all].sort();
}

// POST /api/v1/portfolio/fx/refresh – fetch and store the rates the accounts need
export async function refreshFxRates(query: TFxRefreshQuery): Promise<TFxRefresh> {
  const asOf = query.as_of ?? today();
  const accountIds =
    query.account_id !== undefined
      ? [(await getAccountOrThrow(query.account_id)).id]
      : (await db().portfolioAccount.findMany({ where: { active: true }, select: { id: true } })).map((a) => a.id);
  const currencies = await currenciesOf(accountIds);
  const chain = configuredChain();
  const providers = fxProviders(chain);
  const base = {
    as_of: asOf,
    account_count: accountIds.length,
    pair_count: currencies.length,
    manual_override: Object.keys(settingsRates()).sort(),
  };
  if (providers.length === 0) {
    return {
      ...base,
      refresh_enabled: false,
      disabled_reason: `no market-data provider in MARKET_DATA_SOURCES (${chain.providers.map((p) => ("unknown" in p ? p.unknown : p.name)).join(", ")}) serves FX rates`,
      updated_count: 0,
      stale_count: 0,
      error_count: 0,
      pairs: [],
    };
  }
  const pairs: TFxRefresh["pairs"] = [];
  for (const currency of currencies) {
    try {
      const { data } = await chainFxRate(currency, chain);
      await db().portfolioFxRate.upsert({
        where: { currency_rateDate: { currency, rateDate: data.date } },
        create: { currency, rate: data.rate, rateDate: data.date, source: data.source, fetchedAt: now() },
        update: { rate: data.rate, source: data.source, fetchedAt: now() },
      });
      pairs.push({
        currency,
        quote_currency: "CNY",
        status: "updated",
        rate: data.rate,
        rate_date: data.date,
        source: data.source,
        error: null,
      });
    } catch (error) {
      const last = await db().portfolioFxRate.findFirst({
        where: { currency },
        orderBy: [{ rateDate: "desc" }, { id: "desc" }],
      });
      pairs.push({
        currency,
        quote_currency: "CNY",
        status: last ? "stale" : "error",
        rate: last?.rate ?? null,
        rate_date: last?.rateDate ?? null,
        source: last?.source ?? null,
        error: (error as Error).message,
      });
    }
  }
  return {
    ...base,
    refresh_enabled: true,
    disabled_reason: null,
    updated_count: pairs.filter((p) => p.status === "updated").length,
    stale_count: pairs.filter((p) => p.status === "stale").length,
    error_count: pairs.filter((p) => p.status === "error").length,
    pairs,
  };
}
