import { describe, expect, it } from "vitest";
import { warmReportCards } from "./warm-reports";

describe("the warm-up's real report cards", () => {
  it("are a Chinese and an English card of a full rule report", async () => {
    const cards = await warmReportCards();
    expect(cards.map((card) => card.lang)).toEqual(["zh", "en"]);
    for (const card of cards) {
      expect(card.variant).toBe("stock");
      expect(card.sections.length).toBeGreaterThanOrEqual(3);
      expect(card.hero.length).toBeGreaterThan(0);
    }
    expect(cards[0]!.title).toContain("腾讯控股");
    expect(cards[1]!.title).toContain("Tencent");
  });
});
