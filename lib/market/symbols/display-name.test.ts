import { afterEach, describe, expect, it } from "vitest";
import { displayName, nameLanguage } from "./display-name";
import { createNameIndex } from "./name-index";
import { setPreferredNameSource } from "./name-sources";

describe("displayName", () => {
  afterEach(() => setPreferredNameSource(null));

  it("gives a US stock's Chinese name for zh and its English name for en, whatever name was stored", () => {
    expect(displayName({ market: "us", code: "AAPL" }, "zh", "Apple")).toBe("苹果");
    expect(displayName({ market: "us", code: "AAPL" }, "en", "苹果")).toBe("Apple");
    expect(displayName({ market: "us", code: "nvda", kind: "stock" }, "en")).toBe("NVIDIA");
  });

  it("names A-share and Hong Kong stocks in both languages", () => {
    expect(displayName({ market: "cn", code: "600519" }, "en", "贵州茅台")).toBe("Kweichow Moutai");
    expect(displayName({ market: "cn", code: "600519" }, "zh", "Kweichow Moutai")).toBe("贵州茅台");
    expect(displayName({ market: "hk", code: "00700" }, "en")).toBe("Tencent Holdings");
  });

  it("names a registered index by its canonical id or its display code", () => {
    expect(displayName({ market: "cn", code: "000300.SH", kind: "index" }, "en")).toBe("CSI 300 Index");
    expect(displayName({ market: "cn", code: "sh000300", kind: "index" }, "zh")).toBe("沪深300");
  });

  it("finds the market from the code when the record does not carry one", () => {
    expect(displayName({ code: "TSLA" }, "zh")).toBe("特斯拉");
    expect(displayName({ market: null, code: "00700" }, "zh")).toBe("腾讯控股");
  });

  it("falls back to the stored name, then to the table's other name, for a name the tables lack", () => {
    expect(displayName({ market: "us", code: "ZZZZ" }, "en", "Some Co")).toBe("Some Co");
    expect(displayName({ market: "us", code: "ZZZZ" }, "zh")).toBeNull();
    setPreferredNameSource(createNameIndex([{ kind: "stock", market: "us", code: "ONLYEN", nameEn: "Only English" }]));
    expect(displayName({ market: "us", code: "ONLYEN" }, "zh", "存储名")).toBe("存储名");
    expect(displayName({ market: "us", code: "ONLYEN" }, "zh")).toBe("Only English");
  });

  it("asks the preferred name source before the bundled list", () => {
    setPreferredNameSource(
      createNameIndex([{ kind: "stock", market: "us", code: "AAPL", nameZh: "苹果公司", nameEn: "Apple Inc." }]),
    );
    expect(displayName({ market: "us", code: "AAPL" }, "zh")).toBe("苹果公司");
    expect(displayName({ market: "us", code: "AAPL" }, "en")).toBe("Apple Inc.");
  });
});

describe("nameLanguage", () => {
  it("reads the UI locale as a name language", () => {
    expect(nameLanguage("en")).toBe("en");
    expect(nameLanguage("zh-CN")).toBe("zh");
  });
});
