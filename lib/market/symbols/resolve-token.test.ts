import { describe, expect, it } from "vitest";
import { resolveToken } from "./resolve-token";
import { isRejection, type TTokenResolution } from "./schemas";

function resolved(token: string) {
  const result = resolveToken(token);
  if (isRejection(result)) throw new Error(`expected ${token} to resolve, got: ${result.reason}`);
  return result;
}

function rejection(token: string): string {
  const result: TTokenResolution = resolveToken(token);
  if (!isRejection(result)) throw new Error(`expected ${token} to be rejected, got ${JSON.stringify(result)}`);
  return result.reason;
}

function summary(token: string) {
  const result = resolved(token);
  return { kind: result.kind, market: result.market, code: result.code, exchange: result.exchange };
}

describe("4.2 rule 3: A-share code forms", () => {
  it.each([
    ["600519", "SH"],
    ["sh600519", "SH"],
    ["SH600519", "SH"],
    ["600519.SH", "SH"],
    ["600519.sh", "SH"],
    ["600519.SS", "SH"],
    ["600519.XSHG", "SH"],
    ["1.600519", "SH"],
  ])("%s is stock 600519 on %s", (token, exchange) => {
    expect(summary(token)).toEqual({ kind: "stock", market: "cn", code: "600519", exchange });
  });

  it.each(["000001", "SZ000001", "sz000001", "000001.sz", "000001.SZ", "000001.XSHE", "0.000001"])(
    "%s is stock 000001 平安银行 on SZ",
    (token) => {
      const result = resolved(token);
      expect(result).toMatchObject({ kind: "stock", market: "cn", code: "000001", exchange: "SZ", name: "平安银行" });
    },
  );

  it.each([
    ["300750", "SZ"],
    ["002594", "SZ"],
    ["200011", "SZ"],
    ["688981", "SH"],
    ["601318", "SH"],
    ["900901", "SH"],
  ])("leading digits of %s infer %s", (token, exchange) => {
    expect(resolved(token).exchange).toBe(exchange);
  });

  it("keeps the code as typed digits and the display code equal to it", () => {
    expect(resolved("sh601318")).toMatchObject({
      code: "601318",
      displayCode: "601318",
      token: "sh601318",
      name: "中国平安",
    });
  });
});

describe("4.2 rule 3: Beijing Stock Exchange (8xxxxx, 4xxxxx, 92xxxx)", () => {
  it.each(["830799", "bj830799", "BJ830799", "830799.BJ", "830799.bj"])("%s is a Beijing stock", (token) => {
    expect(summary(token)).toEqual({ kind: "stock", market: "cn", code: "830799", exchange: "BJ" });
  });

  it.each(["430047", "bj430047", "920025", "920025.BJ", "0.920025"])("%s is a Beijing stock", (token) => {
    expect(resolved(token).exchange).toBe("BJ");
  });

  it("92xxxx is Beijing even though 9xxxxx is otherwise Shanghai", () => {
    expect(resolved("920748").exchange).toBe("BJ");
    expect(resolved("900901").exchange).toBe("SH");
  });
});

describe("4.2 rule 3: an exchange that contradicts the code is rejected", () => {
  it.each([
    ["600519.SZ", "Shanghai"],
    ["sz600519", "Shanghai"],
    ["bj600519", "Shanghai"],
    ["000001.BJ", "Shenzhen"],
    ["sh830799", "Beijing"],
    ["830799.SZ", "Beijing"],
    ["0.600519", "Shanghai"],
    ["1.300750", "Shenzhen"],
  ])("%s is rejected (%s code)", (token, exchange) => {
    expect(rejection(token)).toContain(exchange);
  });

  it("sh000002 explains that 000xxx on Shanghai is an index range and points to the Shenzhen stock", () => {
    expect(rejection("sh000002")).toMatch(/not a registered index.*sz000002/);
  });
});

describe("4.2 rule 3: Hong Kong code forms", () => {
  it.each(["00700", "700", "0700", "hk00700", "HK00700", "hk700", "0700.HK", "700.hk", "00700.HK", "116.00700"])(
    "%s is 00700 腾讯控股",
    (token) => {
      expect(resolved(token)).toMatchObject({
        kind: "stock",
        market: "hk",
        code: "00700",
        exchange: "HK",
        name: "腾讯控股",
      });
    },
  );

  it.each([
    ["9988", "09988"],
    ["9988.HK", "09988"],
    ["1", "00001"],
    ["5", "00005"],
    ["2318", "02318"],
  ])("%s pads to %s", (token, code) => {
    expect(summary(token)).toEqual({ kind: "stock", market: "hk", code, exchange: "HK" });
  });

  it("4.2 rule 3: a 4-digit token with no registered index short code is a Hong Kong stock", () => {
    expect(summary("1810")).toEqual({ kind: "stock", market: "hk", code: "01810", exchange: "HK" });
  });

  it.each(["0", "0000", "00000", "hk0", "000000.HK", "hk123456", "1234567"])("%s is rejected", (token) => {
    expect(rejection(token)).toBeTruthy();
  });
});

describe("4.2 rule 3: US ticker forms", () => {
  it.each([
    ["AAPL", "AAPL"],
    ["aapl", "AAPL"],
    ["AAPL.US", "AAPL"],
    ["aapl.us", "AAPL"],
    ["105.AAPL", "AAPL"],
    ["brk.b", "BRK.B"],
    ["BRK.B", "BRK.B"],
    ["BRK-B", "BRK.B"],
    ["brk-b.us", "BRK.B"],
    ["V", "V"],
    ["F", "F"],
  ])("%s is %s", (token, code) => {
    expect(summary(token)).toEqual({ kind: "stock", market: "us", code, exchange: undefined });
  });

  it("a well-formed ticker outside the bundled list still resolves (it fails later like a delisted code)", () => {
    expect(resolved("ZZZZ")).toMatchObject({ kind: "stock", market: "us", code: "ZZZZ" });
    expect(resolved("ZZZZ").name).toBeUndefined();
  });

  it("a short word that is only known as a name resolves by name, never by prefix", () => {
    expect(resolved("Tesla").code).toBe("TSLA");
    expect(resolved("visa").code).toBe("V");
    expect(resolved("APP").code).toBe("APP");
  });
});

describe("4.2 rule 3: registered indices", () => {
  it.each([
    ["sh000001", "000001.SH"],
    ["SH000001", "000001.SH"],
    ["000001.SH", "000001.SH"],
    ["000001.SS", "000001.SH"],
    ["1.000001", "000001.SH"],
    ["上证指数", "000001.SH"],
    ["sz399001", "399001.SZ"],
    ["399001", "399001.SZ"],
    ["399001.SZ", "399001.SZ"],
    ["000300", "000300.SH"],
    ["sh000300", "000300.SH"],
    ["000300.SH", "000300.SH"],
    ["399300", "000300.SH"],
    ["sz399300", "000300.SH"],
    ["沪深300", "000300.SH"],
    ["CSI 300", "000300.SH"],
    ["sh000905", "000905.SH"],
    ["399905.SZ", "000905.SH"],
    ["sh000852", "000852.SH"],
    ["399006", "399006.SZ"],
    ["创业板指", "399006.SZ"],
    ["sh000688", "000688.SH"],
    ["科创50", "000688.SH"],
    ["sh000016", "000016.SH"],
    ["HSI", "HSI"],
    ["^HSI", "HSI"],
    ["hkHSI", "HSI"],
    ["恒生指数", "HSI"],
    ["HSTECH", "HSTECH"],
    ["HSTECH.HK", "HSTECH"],
    ["恒生科技", "HSTECH"],
    ["HSCEI", "HSCEI"],
    ["^HSCE", "HSCEI"],
    ["SPX", "SPX"],
    ["^GSPC", "SPX"],
    [".INX", "SPX"],
    ["us.INX", "SPX"],
    ["S&P 500", "SPX"],
    ["IXIC", "IXIC"],
    ["^IXIC", "IXIC"],
    ["纳斯达克", "IXIC"],
    ["NDX", "NDX"],
    ["^NDX", "NDX"],
    ["Nasdaq-100", "NDX"],
    ["nasdaq 100", "NDX"],
    ["DJI", "DJI"],
    ["^DJI", "DJI"],
    [".DJI", "DJI"],
    ["道琼斯", "DJI"],
  ])("%s is the index %s", (token, canonicalId) => {
    const result = resolved(token);
    expect(result.kind).toBe("index");
    if (result.kind === "index") expect(result.canonicalId).toBe(canonicalId);
  });

  it("an index keeps its canonical id as code and its display code", () => {
    expect(resolved("000300.SH")).toMatchObject({
      kind: "index",
      market: "cn",
      code: "000300.SH",
      canonicalId: "000300.SH",
      displayCode: "sh000300",
      exchange: "SH",
      name: "沪深300",
    });
    expect(resolved("^GSPC")).toMatchObject({ market: "us", canonicalId: "SPX", displayCode: "SPX" });
  });

  it("4.2 rule 3: sh/sz + 6 digits matching a registered index is that index, otherwise a stock", () => {
    expect(resolved("sz399006").kind).toBe("index");
    expect(resolved("sz000002")).toMatchObject({ kind: "stock", code: "000002" });
  });

  it("4.2 rule 4: 000001 is the stock 平安银行 while sh000001 is the SSE Composite", () => {
    expect(resolved("000001")).toMatchObject({ kind: "stock", code: "000001", name: "平安银行" });
    expect(resolved("sh000001")).toMatchObject({ kind: "index", canonicalId: "000001.SH" });
  });

  it.each([
    ["000016", "深康佳A"],
    ["000688", "国城矿业"],
    ["000852", "石化机械"],
    ["000905", "厦门港务"],
  ])("bare %s stays the Shenzhen stock (%s), the index needs a prefix", (token) => {
    expect(resolved(token)).toMatchObject({ kind: "stock", code: token, exchange: "SZ" });
  });

  it.each(["399002", "sz399999", "399999.SZ", "000010.SH", "^XYZ", ".FOO"])(
    "%s is an unregistered index and rejected",
    (token) => {
      expect(rejection(token)).toMatch(/not a registered index/);
    },
  );
});

describe("4.2 rule 3: csi index-provider forms go through the registry", () => {
  it.each([
    ["csi000905", "000905.SH"],
    ["CSI000905", "000905.SH"],
    ["000905.csi", "000905.SH"],
    ["000905.CSI", "000905.SH"],
    ["csi000300", "000300.SH"],
    ["csi000852", "000852.SH"],
    ["csi000016", "000016.SH"],
    ["csi000688", "000688.SH"],
  ])("4.2 rule 3: %s is a registered index", (token, canonicalId) => {
    const result = resolved(token);
    expect(result).toMatchObject({ kind: "index", canonicalId });
  });

  it.each(["csi930050", "930050.csi", "CSI399001", "csi123456"])(
    "4.2 rule 3: %s is unsupported, never a name",
    (token) => {
      expect(rejection(token)).toMatch(/CSI index \d{6} is not a registered index/);
    },
  );

  it("malformed csi forms are rejected with the expected shape", () => {
    expect(rejection("csi905")).toMatch(/exactly 6 digits/);
    expect(rejection("12345.csi")).toMatch(/exactly 6 digits/);
  });
});

describe("4.2 rule 3: unsupported code-like tokens", () => {
  it.each(["510300", "159915", "113001", "700001"])("%s (fund, bond or subscription code) is rejected", (token) => {
    expect(rejection(token)).toMatch(/not a stock code/);
  });

  it.each([
    ["sz50", /exactly 6 digits/],
    ["sh60051", /exactly 6 digits/],
    ["600519.SX", /unknown exchange suffix \.SX/],
    ["1234567", /too many digits/],
    ["123.US", /US ticker/],
  ])("%s is rejected", (token, reason) => {
    expect(rejection(token)).toMatch(reason);
  });
});

describe("4.2 rule 3: names and the 400 cases", () => {
  it.each(["abc123", "a1", "中证A500", "600519abc", "sh 600519"])(
    "%s mixes letters and digits without being code-like",
    (token) => {
      expect(rejection(token)).toMatch(/mixes letters and digits/);
    },
  );

  it.each(["$$$", "贵州茅台!", "<script>", "600519;", "AAPL,MSFT", "😀"])("%s has unsupported characters", (token) => {
    expect(rejection(token)).toMatch(/characters that cannot appear/);
  });

  it.each(["", "   ", "\u3000"])("%j is an empty token", (token) => {
    expect(rejection(token)).toMatch(/Empty token/);
  });

  it("an over-long token is rejected before any lookup", () => {
    expect(rejection("茅".repeat(51))).toMatch(/longer than 50/);
  });

  it("an unknown name is rejected with the name in the reason", () => {
    expect(rejection("不存在的公司")).toBe('No stock or registered index is named "不存在的公司"');
  });

  it("an ambiguous name lists its candidates", () => {
    expect(rejection("Berkshire")).toMatch(/ambiguous.*BRK\.A.*BRK\.B/);
  });
});

describe("normalisation", () => {
  it.each(["６００５１９", "Ｓｈ６００５１９", "６００５１９．ＳＨ", " 600519 ", "\u3000600519\u3000"])(
    "full-width and padded %j resolve to 600519",
    (token) => {
      expect(resolved(token).code).toBe("600519");
    },
  );

  it("keeps the raw token for the caller's records", () => {
    expect(resolved(" sh600519 ").token).toBe(" sh600519 ");
  });

  it("full-width names and inner spaces are normalised", () => {
    expect(resolved("贵州 茅台").code).toBe("600519");
    expect(resolved("ＡＡＰＬ").code).toBe("AAPL");
  });
});

describe("rejection codes (for a UI to word the reason in its own language)", () => {
  function coded(token: string) {
    const result = resolveToken(token);
    if (!isRejection(result)) throw new Error(`expected ${token} to be rejected`);
    return { code: result.code, params: result.params };
  }

  it.each([
    ["", { code: "empty", params: {} }],
    ["茅".repeat(51), { code: "too_long", params: { max: "50" } }],
    ["510300", { code: "fund_or_bond", params: { code: "510300" } }],
    ["399999", { code: "unregistered_index", params: { code: "399999" } }],
    ["csi930050", { code: "unregistered_index", params: { code: "csi930050" } }],
    ["600519.SZ", { code: "exchange_mismatch", params: { code: "600519", exchange: "SH", given: "SZ" } }],
    ["1234567", { code: "too_many_digits", params: { code: "1234567" } }],
    ["hk00000", { code: "invalid_hk_code", params: { code: "hk00000" } }],
    ["sz50", { code: "malformed_code", params: { code: "sz50" } }],
    ["600519.SX", { code: "unknown_suffix", params: { code: "600519.SX", suffix: "SX" } }],
    ["贵州茅台!", { code: "invalid_characters", params: { text: "贵州茅台!" } }],
    ["abc123", { code: "mixed_letters_digits", params: { text: "abc123" } }],
    ["不存在的公司", { code: "unknown_name", params: { name: "不存在的公司" } }],
  ])("%j → %o", (token, expected) => {
    expect(coded(token)).toEqual(expected);
  });

  it("an ambiguous name names its candidates in params", () => {
    const { code, params } = coded("Berkshire");
    expect(code).toBe("ambiguous_name");
    expect(params.name).toBe("Berkshire");
    expect(params.candidates).toMatch(/BRK\.A.*BRK\.B/);
  });
});
