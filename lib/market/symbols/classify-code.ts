import { A_SHARE_EXCHANGE_NAMES, classifyAShareCode, type AShareExchange } from "./a-share-exchange";
import {
  findIndexByBareDigits,
  findIndexByCsiCode,
  findIndexByExchangeCode,
  findIndexByShortCode,
} from "./index-registry";
import type { TIndexEntry, TRejectionCode } from "./schemas";

/**
 * What a token is as a code (spec 4.2 rule 3), decided from its shape and the index registry alone;
 * names are the resolver's business. Tokens arrive normalised (normalizeToken) and have already
 * missed the registry's alias table, so registered spellings such as sh000001 or ^GSPC never get here.
 *
 * Numeric tokens by length:
 * - 6 digits: A-share. The exchange follows from the leading digits (a-share-exchange.ts); 399xxx is
 *   SZSE's index range and goes through the registry; a registered index flagged bareDigitsAreIndex
 *   (only 000300 today) wins over the stock reading.
 * - 4 digits: the spec lets a 4-digit token "resolve to an index code". It does so only through an
 *   index's registered shortCodes; no registered index claims one, because every 4-digit number people
 *   type is a Hong Kong code in practice (0700, 9988, 2318), so a 4-digit token is otherwise a Hong Kong
 *   stock, zero-padded to 5 digits. The registry test keeps any future short code clear of the HK list.
 * - 1 to 3 and 5 digits: Hong Kong stock (700 → 00700). No other market uses such codes, so the short
 *   forms are unambiguous.
 * - 7 or more digits: rejected.
 */
export type CodeClass =
  | { type: "index"; entry: TIndexEntry }
  | { type: "stock"; market: "cn"; code: string; exchange: AShareExchange }
  | { type: "stock"; market: "hk"; code: string; exchange: "HK" }
  // `explicit`: the token can only be a ticker (".US" suffix, class separator, eastmoney secid); a bare
  // word of up to five letters may also be a name ("Tesla"), which the resolver checks.
  | { type: "ticker"; code: string; explicit: boolean }
  | { type: "rejected"; code: TRejectionCode; params: Record<string, string>; reason: string }
  | { type: "not-code" };

const CSI_PREFIX = /^csi(\d{6})$/i;
const CSI_SUFFIX = /^(\d{6})\.csi$/i;
const CSI_MALFORMED = /^(csi\d+|\d+\.csi)$/i;
const EXCHANGE_PREFIX = /^(sh|sz|bj)(\d{6})$/i;
const EXCHANGE_PREFIX_MALFORMED = /^(sh|sz|bj)\d+$/i;
const EXCHANGE_SUFFIX = /^(\d{6})\.(sh|ss|sz|bj|xshg|xshe)$/i;
const SIX_DIGITS_ANY_SUFFIX = /^\d{6}\.([a-z]{1,5})$/i;
const EASTMONEY_A_SHARE = /^([01])\.(\d{6})$/;
const EASTMONEY_HK = /^116\.(\d{1,5})$/;
const EASTMONEY_US = /^10[567]\.([a-z]{1,5})(?:[._-]([a-z]{1,2}))?$/i;
const HK_PREFIX = /^hk(\d{1,5})$/i;
const HK_SUFFIX = /^(\d{1,5})\.hk$/i;
const HK_MALFORMED = /^(hk\d+|\d+\.hk)$/i;
const DIGITS = /^\d+$/;
const US_SUFFIX = /\.us$/i;
const US_TICKER = /^([a-z]{1,5})(?:[.-]([a-z]{1,2}))?$/i;
// ^XXX and .XXX are index-ticker spellings (Yahoo, Reuters/Tencent); registered ones were matched earlier.
const INDEX_TICKER = /^[\^.][a-z0-9]+$/i;

const SUFFIX_EXCHANGE: Record<string, AShareExchange> = {
  sh: "SH",
  ss: "SH",
  xshg: "SH",
  sz: "SZ",
  xshe: "SZ",
  bj: "BJ",
};

function rejected(code: TRejectionCode, params: Record<string, string>, reason: string): CodeClass {
  return { type: "rejected", code, params, reason };
}

function aShareStock(code: string, given: AShareExchange | null, token: string): CodeClass {
  const shape = classifyAShareCode(code);
  if (shape.type === "not-a-stock") return rejected("fund_or_bond", { code }, shape.reason);
  if (shape.type === "szse-index-range") {
    return rejected(
      "unregistered_index",
      { code },
      `${token}: ${code} is a Shenzhen index code (399xxx) that is not a registered index`,
    );
  }
  if (given === "SH" && code.startsWith("000")) {
    return rejected(
      "unregistered_index",
      { code },
      `${token}: 000xxx on the Shanghai exchange is an index code and ${code} is not a registered index` +
        ` (the stock ${code} is listed in Shenzhen: sz${code})`,
    );
  }
  if (given && given !== shape.exchange) {
    return rejected(
      "exchange_mismatch",
      { code, exchange: shape.exchange, given },
      `${token}: ${code} is a ${A_SHARE_EXCHANGE_NAMES[shape.exchange]} code (${shape.exchange}), ` +
        `which contradicts the ${A_SHARE_EXCHANGE_NAMES[given]} (${given}) exchange given`,
    );
  }
  return { type: "stock", market: "cn", code, exchange: shape.exchange };
}

// sh/sz/bj prefix, .SH/.SZ/.BJ suffix, eastmoney secid: a registered index on that exchange wins.
function aShareOnExchange(code: string, exchange: AShareExchange, token: string): CodeClass {
  const entry = findIndexByExchangeCode(exchange, code);
  if (entry) return { type: "index", entry };
  return aShareStock(code, exchange, token);
}

function bareSixDigits(code: string, token: string): CodeClass {
  if (code.startsWith("399")) {
    const entry = findIndexByExchangeCode("SZ", code);
    return entry ? { type: "index", entry } : aShareStock(code, null, token);
  }
  const entry = findIndexByBareDigits(code);
  if (entry) return { type: "index", entry };
  return aShareStock(code, null, token);
}

function hongKong(digits: string, token: string): CodeClass {
  if (/^0+$/.test(digits))
    return rejected("invalid_hk_code", { code: token }, `${token} is not a valid Hong Kong code`);
  return { type: "stock", market: "hk", code: digits.padStart(5, "0"), exchange: "HK" };
}

function numeric(digits: string, token: string): CodeClass {
  if (digits.length === 6) return bareSixDigits(digits, token);
  if (digits.length > 6) {
    return rejected(
      "too_many_digits",
      { code: token },
      `${token} has too many digits for a stock code (A-shares have 6 digits, Hong Kong codes up to 5)`,
    );
  }
  if (digits.length === 4) {
    const entry = findIndexByShortCode(digits);
    if (entry) return { type: "index", entry };
  }
  return hongKong(digits, token);
}

function eastmoneyAShare(market: string, code: string, token: string): CodeClass {
  if (market === "1") return aShareOnExchange(code, "SH", token);
  const entry = findIndexByExchangeCode("SZ", code);
  if (entry) return { type: "index", entry };
  // Eastmoney files both Shenzhen and Beijing under market 0.
  const shape = classifyAShareCode(code);
  const exchange = shape.type === "stock" && shape.exchange === "BJ" ? "BJ" : "SZ";
  return aShareStock(code, exchange, token);
}

function usTicker(base: string, shareClass: string | undefined, explicit: boolean): CodeClass {
  const code = shareClass ? `${base}.${shareClass}` : base;
  return { type: "ticker", code: code.toUpperCase(), explicit: explicit || shareClass !== undefined };
}

function csiForm(token: string): CodeClass | null {
  const csi = CSI_PREFIX.exec(token) ?? CSI_SUFFIX.exec(token);
  if (csi) {
    const entry = findIndexByCsiCode(csi[1]!);
    return entry
      ? { type: "index", entry }
      : rejected("unregistered_index", { code: token }, `${token}: CSI index ${csi[1]} is not a registered index`);
  }
  if (CSI_MALFORMED.test(token))
    return rejected(
      "malformed_code",
      { code: token },
      `${token}: a CSI index code has exactly 6 digits (csi000905 or 000905.CSI)`,
    );
  return null;
}

function aShareForm(token: string): CodeClass | null {
  const prefixed = EXCHANGE_PREFIX.exec(token);
  if (prefixed) return aShareOnExchange(prefixed[2]!, SUFFIX_EXCHANGE[prefixed[1]!.toLowerCase()]!, token);
  if (EXCHANGE_PREFIX_MALFORMED.test(token))
    return rejected("malformed_code", { code: token }, `${token}: sh, sz and bj must be followed by exactly 6 digits`);

  const suffixed = EXCHANGE_SUFFIX.exec(token);
  if (suffixed) return aShareOnExchange(suffixed[1]!, SUFFIX_EXCHANGE[suffixed[2]!.toLowerCase()]!, token);

  const secid = EASTMONEY_A_SHARE.exec(token);
  if (secid) return eastmoneyAShare(secid[1]!, secid[2]!, token);
  return null;
}

function hongKongForm(token: string): CodeClass | null {
  const hk = HK_PREFIX.exec(token) ?? HK_SUFFIX.exec(token) ?? EASTMONEY_HK.exec(token);
  if (hk) return hongKong(hk[1]!, token);
  if (HK_MALFORMED.test(token))
    return rejected("malformed_code", { code: token }, `${token}: a Hong Kong code has 1 to 5 digits`);
  return null;
}

function usForm(token: string): CodeClass | null {
  const secid = EASTMONEY_US.exec(token);
  if (secid) return usTicker(secid[1]!, secid[2], true);
  const hasUsSuffix = US_SUFFIX.test(token);
  const bare = hasUsSuffix ? token.slice(0, -3) : token;
  const ticker = US_TICKER.exec(bare);
  if (ticker) return usTicker(ticker[1]!, ticker[2], hasUsSuffix);
  if (hasUsSuffix)
    return rejected(
      "malformed_code",
      { code: token },
      `${token}: a US ticker has 1 to 5 letters, optionally a class (BRK.B)`,
    );
  return null;
}

export function classifyCode(token: string): CodeClass {
  if (DIGITS.test(token)) return numeric(token, token);
  const classified = csiForm(token) ?? aShareForm(token) ?? hongKongForm(token) ?? usForm(token);
  if (classified) return classified;
  const suffix = SIX_DIGITS_ANY_SUFFIX.exec(token);
  if (suffix)
    return rejected(
      "unknown_suffix",
      { code: token, suffix: suffix[1]!.toUpperCase() },
      `${token}: unknown exchange suffix .${suffix[1]!.toUpperCase()} (use .SH, .SZ or .BJ)`,
    );
  if (INDEX_TICKER.test(token))
    return rejected("unregistered_index", { code: token }, `${token} is not a registered index`);
  return { type: "not-code" };
}
