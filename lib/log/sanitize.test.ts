import { describe, expect, it } from "vitest";
import { redactSecretText, sanitizeText, sanitizeValue } from "@/lib/log/sanitize";

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

describe("provider error texts", () => {
  const key = "sk-live-9f8e7d6c5b4a3210ZYXW";
  it("a key quoted half-masked (first 8, last 4, as an LLM's 401 says) keeps neither end", () => {
    const text = "Incorrect API key provided: sk-live-9***************ZYXW. You can find your API key at x.";
    expect(sanitizeText(text)).toBe("Incorrect API key provided: ***. You can find your API key at x.");
    expect(redactSecretText("Invalid key ***************ZYXW", [key])).toBe("Invalid key ***");
    expect(redactSecretText(`bad key ${key}`, [key], "[redacted]")).toBe("bad key [redacted]");
  });

  it("an SMTP reply echoing the AUTH line or a base64 blob of the password keeps neither", () => {
    const password = "correct horse battery";
    const plain = Buffer.from(`\0trader@example.com\0${password}`).toString("base64");
    const login = Buffer.from(password).toString("base64");
    expect(redactSecretText(`535 5.7.8 rejected: AUTH PLAIN ${plain}`, [password])).toBe(
      "535 5.7.8 rejected: AUTH PLAIN ***",
    );
    expect(redactSecretText(`535 credentials ${login} not accepted`, [password])).toBe(
      "535 credentials *** not accepted",
    );
    expect(redactSecretText(`echo ${plain}`, [password])).toBe("echo ***");
    // Base64-looking words that hold no secret stay.
    expect(redactSecretText("535 5.7.8 AuthenticationFailed", [password])).toBe("535 5.7.8 AuthenticationFailed");
  });
});
