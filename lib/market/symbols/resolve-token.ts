import { classifyAShareCode } from "./a-share-exchange";
import { classifyCode } from "./classify-code";
import { findIndexByAlias, getIndexEntry, toResolvedIndex } from "./index-registry";
import type { NameSource } from "./name-index";
import { lookupExactName, lookupName, type NameLookupOptions, type NameLookupResult } from "./name-lookup";
import { activeNameSources } from "./name-sources";
import { normalizeToken } from "./normalize-text";
import type { TExchange, TMarket, TNameEntry, TRejectionCode, TResolvedStock, TTokenResolution } from "./schemas";

export const MAX_TOKEN_LENGTH = 50;

export type ResolveOptions = NameLookupOptions;

// Han characters, ASCII letters and digits, space and the punctuation real names use
// (S&P, McDonald's, *ST, (Holdings), Nasdaq-100, Trip.com, 太古股份公司A, middle dots).
const NAME_CHARACTERS = /^[\p{Script=Han}A-Za-z0-9 .&'’*()\-·・]+$/u;
const ASCII_LETTER = /[A-Za-z]/;
const ASCII_DIGIT = /[0-9]/;

function reject(token: string, code: TRejectionCode, params: Record<string, string>, reason: string): TTokenResolution {
  return { rejected: true, token, code, params, reason };
}

function findByCode(sources: readonly NameSource[], market: TMarket, code: string): TNameEntry | undefined {
  for (const source of sources) {
    const entry = source.findByCode(market, code);
    if (entry) return entry;
  }
  return undefined;
}

function stock(
  token: string,
  market: TMarket,
  code: string,
  exchange: TExchange | undefined,
  named?: TNameEntry,
): TResolvedStock {
  const resolved: TResolvedStock = { kind: "stock", token, market, code, displayCode: code };
  if (exchange) resolved.exchange = exchange;
  const name = named?.nameZh ?? named?.nameEn;
  if (name) resolved.name = name;
  if (named?.nameEn) resolved.nameEn = named.nameEn;
  return resolved;
}

function exchangeOf(entry: TNameEntry): TExchange | undefined {
  if (entry.market === "hk") return "HK";
  if (entry.market !== "cn") return undefined;
  const shape = classifyAShareCode(entry.code);
  return shape.type === "stock" ? shape.exchange : undefined;
}

export function resolvedFromEntry(entry: TNameEntry, token: string): TTokenResolution {
  if (entry.kind === "index") {
    const index = getIndexEntry(entry.code);
    // A source may list an index the registry does not carry; spec: only registered indices are analysed.
    return index
      ? toResolvedIndex(index, token)
      : reject(token, "unregistered_index", { code: entry.code }, `${entry.code} is not a registered index`);
  }
  return stock(token, entry.market, entry.code, exchangeOf(entry), entry);
}

function describe(entry: TNameEntry): string {
  const name = entry.nameZh ?? entry.nameEn ?? "";
  return `${name} (${entry.code}, ${entry.market})`;
}

function fromNameLookup(result: NameLookupResult, text: string, token: string): TTokenResolution {
  if (result.status === "found") return resolvedFromEntry(result.entry, token);
  if (result.status === "ambiguous") {
    const listed = result.candidates.slice(0, 5).map(describe).join(", ");
    const more = result.more || result.candidates.length > 5 ? " and more" : "";
    return reject(
      token,
      "ambiguous_name",
      { name: text, candidates: listed },
      `Name "${text}" is ambiguous: it matches ${listed}${more}; send the code instead`,
    );
  }
  return reject(token, "unknown_name", { name: text }, `No stock or registered index is named "${text}"`);
}

// A bare word of up to five letters is a ticker unless the list knows it only as a name:
// "AAPL" and "META" are tickers, "Tesla", "Visa" and "Ford" are names of TSLA, V and F, and an
// unknown word stays a well-formed ticker (a code outside the catalogue fails later, like a delisting).
// Prefix matching is never tried here, or "APP" (AppLovin) would become Apple.
function resolveTicker(
  code: string,
  explicit: boolean,
  text: string,
  token: string,
  options: ResolveOptions,
): TTokenResolution {
  const sources = options.sources ?? activeNameSources();
  const known = findByCode(sources, "us", code);
  if (known || explicit) return stock(token, "us", code, undefined, known);
  const named = lookupExactName(text, { ...options, sources });
  if (named.status !== "unknown") return fromNameLookup(named, text, token);
  return stock(token, "us", code, undefined);
}

function resolveName(text: string, token: string, options: ResolveOptions): TTokenResolution {
  if (!NAME_CHARACTERS.test(text)) {
    return reject(
      token,
      "invalid_characters",
      { text },
      `"${text}" contains characters that cannot appear in a stock code or name`,
    );
  }
  if (ASCII_LETTER.test(text) && ASCII_DIGIT.test(text)) {
    return reject(
      token,
      "mixed_letters_digits",
      { text },
      `"${text}" mixes letters and digits but is not a recognised code (examples: 600519, sh600519, 0700.HK, AAPL, csi000905)`,
    );
  }
  return fromNameLookup(lookupName(text, options), text, token);
}

/**
 * Resolve one analyze token (spec 4.2 rule 3) to a stock, a registered index or a rejection.
 * Order: registered index spellings (exact table lookup), then code forms, then names.
 * Every step is a regular expression or a map lookup over tables built at module load.
 */
export function resolveToken(rawToken: string, options: ResolveOptions = {}): TTokenResolution {
  const text = normalizeToken(rawToken);
  if (!text) return reject(rawToken, "empty", {}, "Empty token: send a stock code, an index code or a name");
  if (text.length > MAX_TOKEN_LENGTH)
    return reject(
      rawToken,
      "too_long",
      { max: String(MAX_TOKEN_LENGTH) },
      `Token is longer than ${MAX_TOKEN_LENGTH} characters`,
    );

  const index = findIndexByAlias(text);
  if (index) return toResolvedIndex(index, rawToken);

  const code = classifyCode(text);
  switch (code.type) {
    case "index":
      return toResolvedIndex(code.entry, rawToken);
    case "stock": {
      const sources = options.sources ?? activeNameSources();
      return stock(rawToken, code.market, code.code, code.exchange, findByCode(sources, code.market, code.code));
    }
    case "ticker":
      return resolveTicker(code.code, code.explicit, text, rawToken, options);
    case "rejected":
      return reject(rawToken, code.code, code.params, code.reason);
    case "not-code":
      return resolveName(text, rawToken, options);
  }
}
