import { z } from "zod";

// Markets the service analyses. Indices carry the market of the exchange that publishes them.
export const ZMarket = z.enum(["cn", "hk", "us"]).meta({ id: "Market" });

// Exchange of an A-share (SH Shanghai, SZ Shenzhen, BJ Beijing) or HK for Hong Kong. US listings carry
// no exchange here: the bundled list does not record NASDAQ/NYSE, and providers look that up themselves.
export const ZExchange = z.enum(["SH", "SZ", "BJ", "HK"]).meta({ id: "Exchange" });

const resolvedBase = {
  token: z.string().describe("The token as the client sent it"),
  market: ZMarket,
  displayCode: z.string().describe("How the target is shown to people"),
  exchange: ZExchange.optional(),
  name: z.string().optional().describe("Chinese name where known, else the English name"),
  nameEn: z.string().optional(),
};

export const ZResolvedStock = z
  .object({
    kind: z.literal("stock"),
    ...resolvedBase,
    code: z.string().describe("Normalised code: A-share 6 digits, HK 5 digits, US upper case with '.' class separator"),
  })
  .meta({ id: "ResolvedStock" });

export const ZResolvedIndex = z
  .object({
    kind: z.literal("index"),
    ...resolvedBase,
    code: z.string().describe("Same as canonicalId: indices are identified by their canonical id"),
    canonicalId: z.string().describe("Registry identity, e.g. 000300.SH, HSI, SPX"),
  })
  .meta({ id: "ResolvedIndex" });

export const ZResolvedSymbol = z
  .discriminatedUnion("kind", [ZResolvedStock, ZResolvedIndex])
  .meta({ id: "ResolvedSymbol" });

// Why a token is not a stock or index, as a code a UI can word in its own language (with the reason's values in
// params); reason is the same in English.
export const REJECTION_CODES = [
  "empty",
  "too_long",
  "fund_or_bond",
  "unregistered_index",
  "exchange_mismatch",
  "too_many_digits",
  "invalid_hk_code",
  "malformed_code",
  "unknown_suffix",
  "invalid_characters",
  "mixed_letters_digits",
  "ambiguous_name",
  "unknown_name",
] as const;
export const ZRejectionCode = z.enum(REJECTION_CODES);
export type TRejectionCode = z.infer<typeof ZRejectionCode>;

export const ZSymbolRejection = z
  .object({
    rejected: z.literal(true),
    token: z.string(),
    code: ZRejectionCode,
    params: z.record(z.string(), z.string()).describe("The values the reason names (code, exchange, name, …)"),
    reason: z.string().describe("Human-readable English reason"),
  })
  .meta({ id: "SymbolRejection" });

// Each provider's own spelling of an index. Yahoo's coverage of some CN indices (000688.SS, 000852.SS) is
// reported to be patchy; the symbol is still Yahoo's form, and an empty answer falls through to the next source.
export const ZIndexProviderSymbols = z.object({
  eastmoney: z.string().regex(/^\d{1,3}\.[0-9A-Z]+$/, "eastmoney secid <market>.<code>"),
  tencent: z.string().min(3),
  yahoo: z.string().min(2),
  csi: z
    .string()
    .regex(/^\d{6}$/)
    .optional(),
});

export const ZIndexEntry = z.object({
  canonicalId: z.string().min(2),
  displayCode: z.string().min(2),
  region: ZMarket,
  // Exchange and local code for CN indices, so 000300.SH / sh000300 / 1.000300 can be matched by rule.
  exchange: z.enum(["SH", "SZ"]).optional(),
  localCode: z.string().min(2),
  // The same index disseminated by the other exchange under its own code (CSI 300 is also 399300 on SZSE).
  alternateCodes: z.array(z.object({ exchange: z.enum(["SH", "SZ"]), code: z.string().regex(/^\d{6}$/) })).default([]),
  // True only where no listed stock uses the bare 6 digits (see index-registry.ts for the reasoning).
  bareDigitsAreIndex: z.boolean().default(false),
  // 4-digit numeric short codes (spec 4.2 rule 3); must not collide with a Hong Kong stock code.
  shortCodes: z.array(z.string().regex(/^\d{4}$/)).default([]),
  nameZh: z.string().min(1),
  nameEn: z.string().min(1),
  aliases: z.array(z.string().min(1)).default([]),
  pinyin: z
    .string()
    .regex(/^[a-z0-9]+$/)
    .optional(),
  providers: ZIndexProviderSymbols,
});

export const ZNameEntry = z
  .object({
    kind: z.enum(["stock", "index"]),
    market: ZMarket,
    code: z.string().min(1).describe("Normalised stock code, or the canonical id of an index"),
    nameZh: z.string().min(1).optional(),
    nameEn: z.string().min(1).optional(),
    aliases: z.array(z.string().min(1)).optional(),
    pinyin: z
      .string()
      .regex(/^[a-z0-9]+$/)
      .optional()
      .describe("Initials of the Chinese name"),
    altCodes: z.array(z.string().min(1)).optional().describe("Other spellings matched by code-prefix search"),
  })
  .refine(
    (entry) => entry.nameZh !== undefined || entry.nameEn !== undefined,
    "an entry needs a Chinese or an English name",
  );

export const ZSymbolSearchHit = z
  .object({
    kind: z.enum(["stock", "index"]),
    market: ZMarket,
    code: z.string(),
    displayCode: z.string(),
    canonicalId: z.string().optional(),
    name: z.string().optional(),
    nameEn: z.string().optional(),
    match: z.enum(["exact", "code_prefix", "name_prefix", "name_contains"]),
  })
  .meta({ id: "SymbolSearchHit" });

export type TMarket = z.infer<typeof ZMarket>;
export type TExchange = z.infer<typeof ZExchange>;
export type TResolvedStock = z.infer<typeof ZResolvedStock>;
export type TResolvedIndex = z.infer<typeof ZResolvedIndex>;
export type TResolvedSymbol = z.infer<typeof ZResolvedSymbol>;
export type TSymbolRejection = z.infer<typeof ZSymbolRejection>;
export type TTokenResolution = TResolvedSymbol | TSymbolRejection;
export type TIndexProviderSymbols = z.infer<typeof ZIndexProviderSymbols>;
export type TIndexEntryInput = z.input<typeof ZIndexEntry>;
export type TIndexEntry = z.output<typeof ZIndexEntry>;
export type TNameEntry = z.infer<typeof ZNameEntry>;
export type TSymbolSearchHit = z.infer<typeof ZSymbolSearchHit>;

export function isRejection(resolution: TTokenResolution): resolution is TSymbolRejection {
  return "rejected" in resolution;
}
