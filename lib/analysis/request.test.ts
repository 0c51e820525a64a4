import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors/api-error";
import { planAnalysis } from "./request";
import { ZAnalyzeRequest } from "./schemas";

const plan = (body: object) => planAnalysis(ZAnalyzeRequest.parse(body));

function rejection(body: object): ApiError {
  try {
    plan(body);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a 400");
}

describe("spec 4.2 analyze request rules", () => {
  it("rule 1: no tokens at all is 400 validation_error", () => {
    for (const body of [{}, { stock_code: "" }, { stock_code: "  ", stock_codes: ["", " "] }]) {
      const error = rejection(body);
      expect(error.status).toBe(400);
      expect(error.code).toBe("validation_error");
    }
  });

  it("rule 2: more than 50 non-blank raw tokens is 400, duplicates and rejected tokens included", () => {
    const fifty = Array.from({ length: 49 }, () => "600519");
    expect(plan({ stock_code: "600519", stock_codes: fifty, async_mode: true }).targets).toHaveLength(1);
    const error = rejection({ stock_code: "600519", stock_codes: [...fifty, "abc123"], async_mode: true });
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/51/);
    expect(plan({ stock_codes: [...fifty, "", " "], async_mode: true }).targets).toHaveLength(1);
  });

  it("rule 4: dedup keeps the first occurrence; 600519 and 600519.SH merge", () => {
    const result = plan({ stock_codes: ["600519.SH", "600519", "sh600519"], async_mode: true });
    expect(result.targets.map((t) => t.token)).toEqual(["600519.SH"]);
    expect(result.single).toBe(true);
  });

  it("rule 3/4: the index sh000001 and the stock 000001 are different targets", () => {
    const result = plan({ stock_codes: ["sh000001", "000001"], async_mode: true });
    expect(result.targets.map((t) => t.kind)).toEqual(["index", "stock"]);
  });

  it("rule 5: everything rejected is 400 carrying the first rejection's reason", () => {
    const error = rejection({ stock_codes: ["abc123", "csi999999"], async_mode: true });
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^abc123: /);
  });

  it("rule 6: sync mode with several codes is 400", () => {
    const error = rejection({ stock_codes: ["600519", "AAPL"] });
    expect(error.message).toMatch(/async_mode/);
  });

  it("rule 6: sync mode with a rejected token is 400 with its reason, even when a valid code remains", () => {
    const error = rejection({ stock_codes: ["600519", "csi999999"] });
    expect(error.message).toMatch(/^csi999999: /);
  });

  it("rule 8: single means exactly one target and nothing rejected", () => {
    expect(plan({ stock_code: "600519" }).single).toBe(true);
    expect(plan({ stock_codes: ["600519", "csi999999"], async_mode: true }).single).toBe(false);
  });

  it("rule 3: a bad name fails the whole batch with 400, only code-like targets go to rejected", () => {
    for (const bad of ["abc12xyz", "茅台$", "无此公司名称"]) {
      const error = rejection({ stock_codes: ["600519", bad], async_mode: true });
      expect(error.status).toBe(400);
      expect(error.code).toBe("validation_error");
      expect(error.message.startsWith(`${bad}: `)).toBe(true);
    }
    const result = plan({ stock_codes: ["600519", "csi999999"], async_mode: true });
    expect(result.targets.map((t) => t.token)).toEqual(["600519"]);
    expect(result.rejected.map((r) => [r.token, r.code])).toEqual([["csi999999", "unregistered_index"]]);
  });

  it("docs/api.md §7: strategies and reportLanguage are accepted as aliases; bad enums are schema errors", () => {
    const parsed = ZAnalyzeRequest.parse({ stock_code: "AAPL", strategies: ["trend"], reportLanguage: "en" });
    expect(parsed.skills).toEqual(["trend"]);
    expect(parsed.report_language).toBe("en");
    expect(parsed.report_type).toBe("detailed");
    expect(ZAnalyzeRequest.safeParse({ stock_code: "AAPL", report_type: "huge" }).success).toBe(false);
  });
});
