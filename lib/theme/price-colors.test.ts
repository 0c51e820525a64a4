import { describe, expect, it } from "vitest";
import {
  isPriceColors,
  priceColorChoice,
  priceColorCss,
  priceColorsForLanguage,
  priceHues,
  resolvePriceColors,
} from "./price-colors";

// The price colour convention of a page, from the dsa_colors cookie, else the UI language.

describe("price colour convention", () => {
  it("without a choice the UI language decides: zh-CN red up, en green up", () => {
    expect(resolvePriceColors(undefined, "zh-CN")).toBe("red_up");
    expect(resolvePriceColors(null, "en")).toBe("green_up");
    expect(resolvePriceColors("", "zh-CN")).toBe("red_up");
  });

  it("the cookie's choice wins over the language, both ways", () => {
    expect(resolvePriceColors("green_up", "zh-CN")).toBe("green_up");
    expect(resolvePriceColors("red_up", "en")).toBe("red_up");
    expect(resolvePriceColors("red_up", "zh-CN")).toBe("red_up");
  });

  it("'auto' and an invalid cookie follow the language", () => {
    for (const value of ["auto", "RED_UP", "red-up", "green", "1", " red_up", "red_up;", "%72ed_up"]) {
      expect(resolvePriceColors(value, "zh-CN"), value).toBe("red_up");
      expect(resolvePriceColors(value, "en"), value).toBe("green_up");
      expect(priceColorChoice(value), value).toBe("auto");
    }
    expect(priceColorChoice(undefined)).toBe("auto");
    expect(priceColorChoice("green_up")).toBe("green_up");
  });

  it("language defaults: every Chinese tag reads red up, every other language green up", () => {
    for (const tag of ["zh", "zh-CN", "zh-TW", "zh-Hant-HK", "ZH-cn", "zh_CN"])
      expect(priceColorsForLanguage(tag), tag).toBe("red_up");
    for (const tag of ["en", "en-US", "ja", "de-DE", "", null, undefined, "zha"])
      expect(priceColorsForLanguage(tag), String(tag)).toBe("green_up");
  });

  it("isPriceColors accepts exactly the two conventions", () => {
    expect(isPriceColors("red_up")).toBe(true);
    expect(isPriceColors("green_up")).toBe(true);
    expect(isPriceColors("auto")).toBe(false);
    expect(isPriceColors(undefined)).toBe(false);
  });

  it("the page's CSS maps up to red and down to green in red_up, the other way in green_up", () => {
    expect(priceHues("red_up")).toEqual({ up: "red", down: "green" });
    expect(priceHues("green_up")).toEqual({ up: "green", down: "red" });
    const red = "oklch(50.5% 0.213 27.518)"; // red-700
    const green = "oklch(52.7% 0.154 150.069)"; // green-700
    const redUp = priceColorCss("red_up");
    expect(redUp).toMatch(/^:root\{.*\}$/);
    expect(redUp).toContain("--price-colors:red_up");
    expect(redUp).toContain(`--price-up-700:${red}`);
    expect(redUp).toContain(`--price-down-700:${green}`);
    expect(redUp).toContain("--price-up-chart:#ef4444");
    expect(redUp).toContain("--price-down-chart:#22c55e");
    const greenUp = priceColorCss("green_up");
    expect(greenUp).toContain("--price-colors:green_up");
    expect(greenUp).toContain(`--price-up-700:${green}`);
    expect(greenUp).toContain(`--price-down-700:${red}`);
    expect(greenUp).toContain("--price-up-chart:#22c55e");
    expect(greenUp).toContain("--price-down-chart:#ef4444");
    // Every shade the classes of components/analysis/tone.ts use is defined for both sides.
    for (const css of [redUp, greenUp]) {
      for (const side of ["up", "down"])
        for (const shade of ["50", "300", "400", "500", "600", "700", "950"])
          expect(css).toContain(`--price-${side}-${shade}:oklch(`);
    }
  });
});
