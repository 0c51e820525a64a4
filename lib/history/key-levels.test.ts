import { describe, expect, it } from "vitest";
import { keyLevels, levelPrice } from "./key-levels";
import { storedReport } from "@/tests/kits/stored-reports";

// One price per key level, read from the text the page shows, for the list, the chart and the alert.

describe("levelPrice", () => {
  it("reads the price a level text starts with, in both report languages and from an LLM plan", () => {
    expect(levelPrice("1650.00（MA20）")).toBe(1650);
    expect(levelPrice("1650.25 (recent swing low 2026-04-30)")).toBe(1650.25);
    expect(levelPrice("0.875（20日最低）")).toBe(0.875);
    expect(levelPrice("12.30")).toBe(12.3);
    expect(levelPrice(" ¥1650")).toBe(1650);
  });

  it("no price: no level, or a text that does not start with one (never the 5 of MA5)", () => {
    expect(levelPrice(null)).toBeNull();
    expect(levelPrice("")).toBeNull();
    expect(levelPrice("MA5 附近")).toBeNull();
    expect(levelPrice("—")).toBeNull();
    expect(levelPrice("0")).toBeNull();
  });
});

const report = (
  action: "buy" | "watch" | "sell",
  strategy: Record<"ideal_buy" | "secondary_buy" | "stop_loss" | "take_profit", string | null>,
  current: number | null = 100,
) => ({
  meta: { current_price: current },
  summary: { action } as never,
  strategy,
});

describe("keyLevels", () => {
  it("lists the four levels in page order with their prices; a long call's buys and stop are below, the target above", () => {
    const levels = keyLevels(
      report("buy", {
        ideal_buy: "100.00（现价）",
        secondary_buy: "96.50（MA20）",
        stop_loss: "92.00（支撑下方留出波动缓冲）",
        take_profit: "112.00（20日最高）",
      }),
    );
    expect(levels.map((l) => [l.key, l.kind, l.price, l.direction])).toEqual([
      ["ideal_buy", "ideal_buy", 100, "below"],
      ["secondary_buy", "secondary_buy", 96.5, "below"],
      ["stop_loss", "stop_loss", 92, "below"],
      ["take_profit", "take_profit", 112, "above"],
    ]);
  });

  it("a watch call's levels are the breakout above and the breakdown below", () => {
    const levels = keyLevels(
      report("watch", {
        ideal_buy: "108.00 (breakout above)",
        secondary_buy: null,
        stop_loss: "94.00 (breakdown below)",
        take_profit: null,
      }),
    );
    expect(levels.map((l) => [l.kind, l.price, l.direction])).toEqual([
      ["breakout", 108, "above"],
      ["secondary_buy", null, "below"],
      ["breakdown", 94, "below"],
      ["take_profit", null, "above"],
    ]);
  });

  it("a short call's stop lies above the price and its target below; without a price the kind decides", () => {
    const short = keyLevels(
      report("sell", { ideal_buy: null, secondary_buy: null, stop_loss: "106.00", take_profit: "90.00" }),
    );
    expect(short.map((l) => l.direction)).toEqual(["below", "below", "above", "below"]);
    const unpriced = keyLevels(
      report("sell", { ideal_buy: null, secondary_buy: null, stop_loss: "106.00", take_profit: "90.00" }, null),
    );
    expect(unpriced.map((l) => l.direction)).toEqual(["below", "below", "below", "above"]);
  });

  it("a report the rule engine wrote: every level it names has the price its text shows", () => {
    const stored = storedReport("zh");
    for (const level of keyLevels(stored)) {
      const text = stored.strategy[level.key];
      if (text === null) expect(level.price).toBeNull();
      else {
        expect(text.startsWith(level.priceText!)).toBe(true);
        expect(level.priceText).toBe(level.price!.toFixed(level.price! < 1 ? 3 : 2));
      }
    }
    expect(keyLevels(stored).some((l) => l.price !== null)).toBe(true);
  });
});
