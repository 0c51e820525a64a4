import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bearerTokenOf, hashToken, newTokenSecret, scopeAllows } from "./api-token-secret";

const withAuth = (value?: string) =>
  new Request("http://127.0.0.1:3000/api/v1/history", { headers: value === undefined ? {} : { authorization: value } });

describe("API token secrets", () => {
  it("a new token is dsa_ plus 32 random bytes in base64url, kept as its SHA-256 and a 12-character prefix", () => {
    const a = newTokenSecret();
    const b = newTokenSecret();
    expect(a.token).toMatch(/^dsa_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.token.slice(4), "base64url")).toHaveLength(32);
    expect(a.hash).toBe(createHash("sha256").update(a.token).digest("hex"));
    expect(a.hash).not.toContain(a.token.slice(4));
    expect(a.prefix).toBe(a.token.slice(0, 12));
    expect(b.token).not.toBe(a.token);
    expect(hashToken(a.token)).toBe(a.hash);
    expect(hashToken(b.token)).not.toBe(a.hash);
  });

  it("reads the Bearer header; a malformed one is an empty (failing) token, no header is null", () => {
    expect(bearerTokenOf(withAuth("Bearer dsa_abc"))).toBe("dsa_abc");
    expect(bearerTokenOf(withAuth("bearer  dsa_abc "))).toBe("dsa_abc");
    expect(bearerTokenOf(withAuth("Basic dXNlcjpwdw=="))).toBe("");
    expect(bearerTokenOf(withAuth("Bearer a b"))).toBe("");
    expect(bearerTokenOf(withAuth())).toBeNull();
  });

  it("read reaches GET and HEAD only; write reaches every method; an unknown scope reaches nothing", () => {
    for (const method of ["GET", "HEAD", "get"]) expect(scopeAllows("read", method), method).toBe(true);
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(scopeAllows("read", method), method).toBe(false);
      expect(scopeAllows("write", method), method).toBe(true);
    }
    expect(scopeAllows("admin", "GET")).toBe(false);
  });
});
