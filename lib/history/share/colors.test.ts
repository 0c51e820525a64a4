import { describe, expect, it } from "vitest";
import { reviewMarkets } from "@/lib/market-review/rules";
import type { PriceColors } from "@/lib/theme/price-colors";
import { buildMarkdownReport } from "../markdown";
import { getHistoryShareImageHtmlOp, getHistoryShareImageOp, ZShareImageQuery } from "../operations";
import type { TAnalysisReport } from "../schemas";
import { storedMarketReview, storedReport } from "@/tests/kits/stored-reports";
import { buildShareCard, type ShareCard } from "./card";
import { renderShareHtml } from "./html";
import { toneColors } from "./layout";
import { cardKey } from "./png-cache";

// Colours on the share image: API clients fetch it without the UI's cookie, so the report's language sets the
// default (zh red up, en green up); the colors query parameter (the UI sends the user's setting) overrides it.

const RED = "#d92d20";
const GREEN = "#079455";

function cardOf(report: TAnalysisReport, colors?: PriceColors): ShareCard {
  const markdown = buildMarkdownReport({
    report,
    news: [],
    dataSource: "eastmoney",
    region: "cn",
    volumeRatio: 1.23,
    turnoverRate: 0.45,
  });
  return buildShareCard({ report, markdown, colors });
}

/** The inline colour of the box whose whole text is `text`. */
function colourOf(html: string, text: string): string | null {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`color:(#[0-9a-f]{6})">${escaped}</div>`).exec(html)?.[1] ?? null;
}

describe("share card price colours", () => {
  it("default by the report's language: a zh report red up, an en report green up", () => {
    expect(cardOf(storedReport("zh")).colors).toBe("red_up");
    expect(cardOf(storedReport("en")).colors).toBe("green_up");
  });

  it("the colors parameter overrides the language's default, both ways", () => {
    expect(cardOf(storedReport("zh"), "green_up").colors).toBe("green_up");
    expect(cardOf(storedReport("en"), "red_up").colors).toBe("red_up");
  });

  it("zh report, rising price: red by default, green with colors=green_up; a falling price the other way", () => {
    const up = storedReport("zh", { change_pct: 1.25 });
    expect(colourOf(renderShareHtml(cardOf(up)), "1660.50")).toBe(RED);
    expect(colourOf(renderShareHtml(cardOf(up)), "+1.25%")).toBe(RED);
    expect(colourOf(renderShareHtml(cardOf(up, "green_up")), "1660.50")).toBe(GREEN);
    const down = storedReport("zh", { change_pct: -1.25 });
    expect(colourOf(renderShareHtml(cardOf(down)), "1660.50")).toBe(GREEN);
    expect(colourOf(renderShareHtml(cardOf(down, "green_up")), "1660.50")).toBe(RED);
  });

  it("en report, rising price: green by default, red with colors=red_up", () => {
    const up = storedReport("en", { change_pct: 2 });
    expect(colourOf(renderShareHtml(cardOf(up)), "1660.50")).toBe(GREEN);
    expect(colourOf(renderShareHtml(cardOf(up, "red_up")), "1660.50")).toBe(RED);
  });

  it("the action tile: buying sides take the up colour, selling sides the down colour", () => {
    const report = storedReport("zh", { change_pct: 1 });
    const withAction = (action: "buy" | "sell", colors?: PriceColors): string | null => {
      const r: TAnalysisReport = {
        ...report,
        summary: { ...report.summary, action, action_label: action === "buy" ? "买入" : "卖出" },
      };
      return colourOf(renderShareHtml(cardOf(r, colors)), r.summary.action_label!);
    };
    expect(withAction("buy")).toBe(RED);
    expect(withAction("sell")).toBe(GREEN);
    expect(withAction("buy", "green_up")).toBe(GREEN);
    expect(withAction("sell", "green_up")).toBe(RED);
  });

  it("the page names its convention; the tone table keeps good/bad (the temperature light) as they were", () => {
    expect(renderShareHtml(cardOf(storedReport("zh")))).toContain('<meta name="price-colors" content="red_up">');
    expect(renderShareHtml(cardOf(storedReport("zh"), "green_up"))).toContain(
      '<meta name="price-colors" content="green_up">',
    );
    expect(renderShareHtml(cardOf(storedReport("en")))).toContain('<meta name="price-colors" content="green_up">');
    expect(toneColors("red_up")).toMatchObject({ up: RED, down: GREEN, good: GREEN, bad: RED });
    expect(toneColors("green_up")).toMatchObject({ up: GREEN, down: RED, good: GREEN, bad: RED });
  });

  it("a market review's breadth bar follows the convention: advancers up, decliners down", async () => {
    const { report, payload } = await storedMarketReview("zh");
    const breadth = reviewMarkets(payload)[0]!.breadth;
    expect(breadth?.up_count).toBeGreaterThan(0);
    expect(breadth?.down_count).toBeGreaterThan(0);
    /** The colours of the first breadth bar's segments, in order (advancers, flat, decliners). */
    const segments = (html: string): string[] => {
      const bar = /flex-direction:row;width:\d+px;height:18px">((?:<div style="[^"]*"><\/div>)+)<\/div>/.exec(
        html,
      )![1]!;
      return [...bar.matchAll(/background-color:(#[0-9a-f]{6})/g)].map((m) => m[1]!);
    };
    const redUp = segments(renderShareHtml(cardOf(report)));
    expect(redUp[0]).toBe(RED);
    expect(redUp.at(-1)).toBe(GREEN);
    const greenUp = segments(renderShareHtml(cardOf(report, "green_up")));
    expect(greenUp[0]).toBe(GREEN);
    expect(greenUp.at(-1)).toBe(RED);
  });

  it("the PNG cache tells the two conventions apart", () => {
    const report = storedReport("zh", { change_pct: 1 });
    expect(cardKey(cardOf(report, "red_up"))).toBe(cardKey(cardOf(report)));
    expect(cardKey(cardOf(report, "green_up"))).not.toBe(cardKey(cardOf(report)));
  });

  it("GET share-image and share-image-html take an optional colors=red_up|green_up query parameter", () => {
    expect(getHistoryShareImageOp.query).toBe(ZShareImageQuery);
    expect(getHistoryShareImageHtmlOp.query).toBe(ZShareImageQuery);
    expect(ZShareImageQuery.parse({})).toEqual({});
    expect(ZShareImageQuery.parse({ colors: "green_up" })).toEqual({ colors: "green_up" });
    expect(ZShareImageQuery.parse({ colors: "red_up" })).toEqual({ colors: "red_up" });
    for (const bad of ["auto", "GREEN_UP", "green", ""])
      expect(ZShareImageQuery.safeParse({ colors: bad }).success, bad).toBe(false);
  });
});
