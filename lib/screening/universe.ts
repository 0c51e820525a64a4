import { sampleStocks } from "@/lib/market";
import { csvDataDir, listCsvFileNames } from "@/lib/market/providers/csv";
import { configuredChain } from "@/lib/market/providers/chain";
import { resolveToken, type TMarket, type TResolvedStock } from "@/lib/market/symbols";
import type { TSourceError } from "./schemas";
import { providerMarketList, type MarketList } from "./snapshot";

// The stocks a run screens, from the sources the chain lists, in its order: Eastmoney's list of the market's most
// traded stocks (or the last good one when the list cannot be read now), the sample catalogue (always labelled
// sample) and the user's CSV folder. The other exchange providers serve no market list; a chain of only those says so.

export interface UniverseMember {
  symbol: TResolvedStock;
  /** Where the member was listed from. */
  listed_from: "eastmoney" | "sample" | "csv";
}

export interface Universe {
  members: UniverseMember[];
  /** The sources the universe was listed from, in chain order. */
  sources: string[];
  /** Exchange providers in the chain that serve no market list. */
  unlisted: string[];
  /** The provider's list, when one was read (now, or the last good one). */
  list: MarketList | null;
  errors: TSourceError[];
}

function asStock(code: string, market: TMarket): TResolvedStock | null {
  const resolved = resolveToken(code);
  return "kind" in resolved && resolved.kind === "stock" && resolved.market === market ? resolved : null;
}

export async function screeningUniverse(market: TMarket): Promise<Universe> {
  const names = configuredChain().providers.map((p) => ("unknown" in p ? p.unknown : p.name));
  const members = new Map<string, UniverseMember>();
  const add = (code: string, from: UniverseMember["listed_from"], name?: string | null) => {
    const symbol = asStock(code, market);
    if (!symbol || members.has(symbol.code)) return;
    // The list's name where the bundled names have none (a stock listed since they were made).
    members.set(symbol.code, { symbol: symbol.name || !name ? symbol : { ...symbol, name }, listed_from: from });
  };
  const sources: string[] = [];
  const errors: TSourceError[] = [];
  let list: MarketList | null = null;
  for (const name of names) {
    if (name === "eastmoney") {
      const read = await providerMarketList(market);
      if (read.error) errors.push(read.error);
      list = read.list;
      if (list) {
        sources.push(list.source);
        // A suspended stock has no price in the list: it has no session to screen.
        for (const row of list.rows) if (row.price !== null) add(row.code, "eastmoney", row.name);
      }
    }
    if (name === "sample") {
      sources.push("sample");
      for (const stock of sampleStocks().filter((s) => s.market === market)) add(stock.code, "sample");
    }
    if (name === "csv") {
      sources.push("csv");
      for (const file of await listCsvFileNames(csvDataDir())) add(file.slice(0, -".csv".length), "csv");
    }
  }
  const unlisted = names.filter((n) => n !== "eastmoney" && n !== "sample" && n !== "csv");
  return { members: [...members.values()], sources, unlisted, list, errors };
}
