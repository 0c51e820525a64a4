import { describe, expect, it } from "vitest";
import { MAX_PARTS, splitLines, splitMessage } from "./split";
import { utf16Units, utf8Bytes } from "./text";
import type { NotificationMessage } from "./types";

const message: NotificationMessage = {
  kind: "report",
  title: "Watchlist report 2026-11-23 · 30 stocks",
  body: "",
  link: { url: "https://dsa.example.com/history", label: "Open the history" },
};

const lines = (n: number, width = 60) =>
  Array.from({ length: n }, (_, i) => `- line ${String(i).padStart(3, "0")} ${"x".repeat(width)}`);

describe("splitting long notifications", () => {
  it("keeps a message that fits as it is", () => {
    const short = { ...message, body: lines(5).join("\n") };
    expect(splitMessage(short, { max: 2000, measure: utf16Units })).toEqual([short]);
    expect(splitMessage({ ...message, body: lines(200).join("\n") }, undefined)).toHaveLength(1);
  });

  it("splits at line ends into numbered parts, each within the budget, losing no line", () => {
    const body = lines(60).join("\n");
    const parts = splitMessage({ ...message, body }, { max: 2000, measure: utf16Units });
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.map((p) => p.title)).toEqual(parts.map((_, i) => `${message.title} (${i + 1}/${parts.length})`));
    for (const part of parts) {
      expect(part.link).toEqual(message.link);
      expect(
        `### ${part.title}\n\n${part.body}\n\n[${part.link!.label}](${part.link!.url})`.length,
      ).toBeLessThanOrEqual(2000);
      // Whole lines only.
      for (const line of part.body.split("\n")) expect(line).toMatch(/^- line \d{3} x{60}$/);
    }
    expect(parts.map((p) => p.body).join("\n")).toBe(body);
  });

  it("cuts a line longer than the budget on code-point boundaries, measured in bytes", () => {
    const chunks = splitLines("😀".repeat(100), 40, utf8Bytes);
    expect(chunks.every((c) => utf8Bytes(c) <= 40)).toBe(true);
    expect(chunks.join("")).toBe("😀".repeat(100));
    expect(chunks).toHaveLength(10);
  });

  it("never sends more than MAX_PARTS: the last part holds the rest for the channel to cut", () => {
    const body = lines(400).join("\n");
    const parts = splitMessage({ ...message, body }, { max: 1000, measure: utf16Units });
    expect(parts).toHaveLength(MAX_PARTS);
    expect(parts.map((p) => p.body).join("\n")).toBe(body);
    expect(parts[MAX_PARTS - 1]!.body.length).toBeGreaterThan(1000);
  });
});
