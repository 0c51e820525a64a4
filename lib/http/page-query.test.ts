import { describe, expect, it } from "vitest";
import { z } from "zod";
import { firstParam, readPageQuery } from "./page-query";

// Pages read their URL filters with the API operation's own query schema.

const ZQuery = z
  .object({
    market: z.enum(["cn", "hk", "us"]).optional(),
    from: z.string().date().optional(),
    page: z.coerce.number().int().min(1).default(1),
  })
  .strict();

describe("a page's URL query", () => {
  it("takes each field's first value, trimmed; a blank value is absent", () => {
    expect(firstParam([" 600519 ", "x"])).toBe("600519");
    expect(firstParam("  ")).toBeUndefined();
    expect(firstParam(undefined)).toBeUndefined();
  });

  it("parses the listed fields with the schema and ignores others", () => {
    const read = readPageQuery({ market: "hk", page: "3", other: "1" }, ZQuery, ["market", "from", "page"], {
      page: 1,
    });
    expect(read).toEqual({ query: { market: "hk", page: 3 }, invalid: [] });
  });

  it("drops and names the fields the schema refuses, keeping the rest", () => {
    const read = readPageQuery({ market: "mars", from: "2026-13-40", page: "2" }, ZQuery, ["market", "from", "page"], {
      page: 1,
    });
    expect(read.query).toEqual({ page: 2 });
    expect(read.invalid.sort()).toEqual(["from", "market"]);
  });

  it("falls back when a refusal names no field it could drop", () => {
    const ZRange = z
      .object({ a: z.coerce.number().optional(), b: z.coerce.number().optional() })
      .refine((q) => q.a === undefined || q.b === undefined || q.a <= q.b);
    expect(readPageQuery({ a: "5", b: "1" }, ZRange, ["a", "b"], {})).toEqual({ query: {}, invalid: [] });
  });
});
