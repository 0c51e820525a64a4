import { getSettings } from "@/lib/settings/settings";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { regionLabel } from "@/lib/market-review/rules";
import { dedupKey, isRejection, resolveToken, type TMarket, type TResolvedSymbol } from "@/lib/market/symbols";
import { MARKET_REGIONS, type TTargetScope } from "./parameters";

// Target scopes (docs/api.md §12.2.1): what a rule names when it is created, and the targets the evaluator checks
// for it on each pass (a watchlist or the holdings expand to one target per stock).

/** A rule over a watchlist or holdings checks at most this many stocks per pass (the reference's cap). */
export const MAX_TARGETS = 100;
const ALL = "all";

export function resolveAlertTarget(token: string): TResolvedSymbol {
  const resolved = resolveToken(token);
  if (isRejection(resolved)) throw ApiError.of("validation_error", `${token}: ${resolved.reason}`);
  return resolved;
}

export interface NormalizedTarget {
  target: string;
  targetKey: string;
}

async function accountTarget(scope: TTargetScope, raw: string): Promise<NormalizedTarget> {
  const text = raw.trim().toLowerCase();
  if (text === ALL) return { target: ALL, targetKey: `${scope}:${ALL}` };
  if (!/^\d{1,9}$/.test(text))
    throw ApiError.of("validation_error", `${scope} target must be "all" or an account id (got ${raw})`);
  const id = Number(text);
  const account = await db().portfolioAccount.findUnique({ where: { id }, select: { id: true } });
  if (!account) throw ApiError.of("validation_error", `${scope}: no portfolio account ${id}`);
  return { target: String(id), targetKey: `${scope}:${id}` };
}

/** The stored form of a rule's target: a stock's display code, "default", "all" or an account id, a region. */
export async function normalizeTarget(scope: TTargetScope, raw: string): Promise<NormalizedTarget> {
  switch (scope) {
    case "single_symbol": {
      const symbol = resolveAlertTarget(raw);
      return { target: symbol.displayCode, targetKey: dedupKey(symbol) };
    }
    case "watchlist":
      if (raw.trim().toLowerCase() !== "default")
        throw ApiError.of(
          "validation_error",
          `watchlist target must be "default" (the STOCK_LIST setting), got ${raw}`,
        );
      return { target: "default", targetKey: "watchlist:default" };
    case "portfolio_holdings":
    case "portfolio_account":
      return accountTarget(scope, raw);
    case "market": {
      const region = raw.trim().toLowerCase();
      if (!(MARKET_REGIONS as readonly string[]).includes(region))
        throw ApiError.of("validation_error", `market target must be one of ${MARKET_REGIONS.join(", ")} (got ${raw})`);
      return { target: region, targetKey: `market:${region}` };
    }
  }
}

export type ExpandedTarget =
  | { kind: "symbol"; target: string; display: string; symbol: TResolvedSymbol }
  | { kind: "account"; target: string; display: string; accountId: number | null }
  | { kind: "market"; target: string; display: string; region: TMarket }
  | { kind: "invalid"; target: string; display: string; reason: string };

export interface Expansion {
  targets: ExpandedTarget[];
  /** Why a rule over a list has nothing to check this pass (empty watchlist, no holdings). */
  empty: string | null;
}

function symbolTarget(symbol: TResolvedSymbol): ExpandedTarget {
  return {
    kind: "symbol",
    target: symbol.displayCode,
    display: symbol.name ? `${symbol.displayCode} ${symbol.name}` : symbol.displayCode,
    symbol,
  };
}

function symbolsOf(tokens: readonly string[]): ExpandedTarget[] {
  const seen = new Set<string>();
  const out: ExpandedTarget[] = [];
  for (const token of tokens) {
    if (out.length >= MAX_TARGETS) break;
    const resolved = resolveToken(token);
    if (isRejection(resolved)) {
      if (!seen.has(`invalid:${token}`))
        out.push({ kind: "invalid", target: token, display: token, reason: `${token}: ${resolved.reason}` });
      seen.add(`invalid:${token}`);
      continue;
    }
    const key = dedupKey(resolved);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(symbolTarget(resolved));
  }
  return out;
}

function accountLabel(id: number | null, language: "zh" | "en", name?: string): string {
  if (id === null) return language === "zh" ? "全部账户" : "all accounts";
  return name ? `${name} (#${id})` : `#${id}`;
}

/** The targets a rule checks now: STOCK_LIST and the holdings are read on every pass. */
export async function expandTargets(
  rule: { targetScope: string; target: string },
  language: "zh" | "en",
): Promise<Expansion> {
  const scope = rule.targetScope as TTargetScope;
  switch (scope) {
    case "single_symbol": {
      const resolved = resolveToken(rule.target);
      if (isRejection(resolved))
        return {
          targets: [{ kind: "invalid", target: rule.target, display: rule.target, reason: resolved.reason }],
          empty: null,
        };
      return { targets: [symbolTarget(resolved)], empty: null };
    }
    case "watchlist": {
      const targets = symbolsOf(getSettings().STOCK_LIST);
      return { targets, empty: targets.length === 0 ? "the watchlist (STOCK_LIST) is empty" : null };
    }
    case "portfolio_holdings": {
      const accountId = rule.target === ALL ? null : Number(rule.target);
      const positions = await db().portfolioPosition.findMany({
        where: { quantity: { gt: 0 }, account: { active: true }, ...(accountId === null ? {} : { accountId }) },
        orderBy: [{ accountId: "asc" }, { id: "asc" }],
        select: { stockCode: true },
        take: 1000,
      });
      const targets = symbolsOf(positions.map((p) => p.stockCode));
      return { targets, empty: targets.length === 0 ? `no holdings in ${accountLabel(accountId, "en")}` : null };
    }
    case "portfolio_account": {
      const accountId = rule.target === ALL ? null : Number(rule.target);
      const account =
        accountId === null
          ? null
          : await db().portfolioAccount.findUnique({ where: { id: accountId }, select: { name: true } });
      return {
        targets: [
          {
            kind: "account",
            target: rule.target,
            display: accountLabel(accountId, language, account?.name),
            accountId,
          },
        ],
        empty: null,
      };
    }
    case "market": {
      const region = rule.target as TMarket;
      return {
        targets: [{ kind: "market", target: region, display: regionLabel(region, language), region }],
        empty: null,
      };
    }
  }
}

/** The accounts a portfolio rule may name (the Alerts page's choices): active ones, oldest first. */
export async function accountChoices(): Promise<{ id: number; name: string }[]> {
  return db().portfolioAccount.findMany({
    where: { active: true },
    orderBy: { id: "asc" },
    select: { id: true, name: true },
    take: 200,
  });
}

/** How many stocks the watchlist rule expands to now (the STOCK_LIST entries, before resolution). */
export function watchlistSize(): number {
  return getSettings().STOCK_LIST.length;
}
