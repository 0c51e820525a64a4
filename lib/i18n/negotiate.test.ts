import { describe, expect, it } from "vitest";
import { localeFromAcceptLanguage, resolveLocale } from "./negotiate";

// The first visit follows Accept-Language (zh* → zh-CN, anything else → en); the language
// cookie, once the user picked a language, wins.

describe("localeFromAcceptLanguage", () => {
  it.each([
    ["zh-CN,zh;q=0.9,en;q=0.8", "zh-CN"],
    ["zh", "zh-CN"],
    ["zh-TW", "zh-CN"],
    ["zh-Hant-HK;q=0.9", "zh-CN"],
    ["ZH-cn", "zh-CN"],
    ["en-US,en;q=0.9", "en"],
    ["en", "en"],
    ["de-DE,de;q=0.9", "en"],
    ["ja", "en"],
    ["en-US,zh-CN;q=0.9", "en"],
    ["en;q=0.5,zh-CN;q=0.9", "zh-CN"],
    ["zh-CN;q=0,en", "en"],
    ["*,zh;q=0.8", "zh-CN"],
    ["fr;q=0.8, zh;q=0.8", "en"],
    ["zhx", "en"],
  ])("%s → %s", (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale);
  });

  it("names no locale for a missing, empty or wildcard-only header (Node's fetch sends '*')", () => {
    for (const header of [undefined, null, "", "*", " , ", "en;q=0"])
      expect(localeFromAcceptLanguage(header)).toBeNull();
  });
});

describe("resolveLocale", () => {
  it("the language cookie wins over the header", () => {
    expect(resolveLocale("zh-CN", "en-US,en;q=0.9")).toBe("zh-CN");
    expect(resolveLocale("en", "zh-CN,zh;q=0.9")).toBe("en");
  });

  it("without a valid cookie the header decides, and without either zh-CN is the default", () => {
    expect(resolveLocale(undefined, "en-US")).toBe("en");
    expect(resolveLocale("fr", "zh-TW")).toBe("zh-CN");
    expect(resolveLocale(undefined, undefined)).toBe("zh-CN");
    expect(resolveLocale(undefined, "*")).toBe("zh-CN");
  });
});
