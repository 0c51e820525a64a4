import { describe, expect, it } from "vitest";
import { sanitizeText, sanitizeValue } from "@/lib/log/sanitize";

describe("diagnostics sanitising", () => {
  it("masks credentials in URLs, headers and provider messages", () => {
    expect(sanitizeText("GET https://api.x.com/s?q=a&api_key=abc123456&x=1 failed")).toBe(
      "GET https://api.x.com/s?q=a&api_key=***&x=1 failed",
    );
    expect(sanitizeText("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.x.y")).toBe("Authorization: Bearer ***");
    expect(sanitizeText("key sk-proj-ABCDEFGH12345678 rejected")).toBe("key sk-*** rejected");
    expect(sanitizeText('{"api_key":"tvly-secret-value","q":"x"}')).toBe('{"api_key":"***","q":"x"}');
  });

  it("drops secret-named fields and prompts from nested records", () => {
    const out = sanitizeValue({
      provider: "tavily",
      apiKey: "k",
      nested: [{ headers: { a: 1 }, msg: "token=zzzzzzzz" }],
      prompt: "...",
    });
    expect(out).toEqual({ provider: "tavily", nested: [{ msg: "token=***" }] });
  });
});
