import { sampleStocks } from "@/lib/market";
import { csvDataDir, listCsvFileNames } from "@/lib/market/providers/csv";
import { configuredChain } from "@/lib/market/providers/chain";
import { resolveToken, type TMarket, type TResolvedStock } from "@/lib/market/symbols";

// The stocks a run screens. This version reads the local sources the chain lists: the sample catalogue (always
// labelled sample) and the user's CSV folder (one file per stock). A market-wide snapshot from the exchange
// providers is not read yet; a run over a chain of only those says so instead of screening nothing silently.

export interface UniverseMember {
  symbol: TResolvedStock;
  /** Where the member was listed from: the sample catalogue or the CSV folder. */
  listed_from: "sample" | "csv";
}

export interface Universe {
  members: UniverseMember[];
  /** The sources the universe was listed from, in chain order ("sample", "csv"). */
  sources: string[];
  /** Exchange providers in the chain whose market lists this version does not read. */
  unlisted: string[];
}

function asStock(code: string, market: TMarket): TResolvedStock | null {
  const resolved = resolveToken(code);
  return "kind" in resolved && resolved.kind === "stock" && resolved.market === market ? resolved : null;
}

export async function screeningUniverse(market: TMarket): Promise<Universe> {
  const names = configuredChain().providers.map((p) => ("unknown" in p ? p.unknown : p.name));
  const members = new Map<string, UniverseMember>();
  const sources: string[] = [];
  for (const name of names) {
    if (name === "sample") {
      sources.push("sample");
      for (const stock of sampleStocks().filter((s) => s.market === market)) {
        const symbol = asStock(stock.code, market);
        if (symbol && !members.has(symbol.code)) members.set(symbol.code, { symbol, listed_from: "sample" });
      }
    }
    if (name === "csv") {
      sources.push("csv");
      for (const file of await listCsvFileNames(csvDataDir())) {
        const symbol = asStock(file.slice(0, -".csv".length), market);
        if (symbol && !members.has(symbol.code)) members.set(symbol.code, { symbol, listed_from: "csv" });
      }
    }
  }
  const unlisted = names.filter((n) => n !== "sample" && n !== "csv");
  return { members: [...members.values()], sources, unlisted };
}
