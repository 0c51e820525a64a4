import { describe, expect, it } from "vitest";
import { isApiPath, refusalBody, refuseRawRequest } from "./raw-request";

describe("issue 18 §3: request lines Next would answer with a bare 500", () => {
  it("a malformed percent-escape in the path is 400 invalid_request; a valid one passes", () => {
    for (const url of ["/api/v1/history/%ff", "/api/v1/history/%", "/history/%E4%B8", "/%zz?x=1"]) {
      expect(refuseRawRequest("GET", url), url).toMatchObject({ status: 400, code: "invalid_request" });
    }
    expect(refuseRawRequest("GET", "/api/v1/history/%E4%B8%AD?q=%ff")).toBeNull();
  });

  it("TRACE and other unknown methods are 405 with Allow", () => {
    const refusal = refuseRawRequest("TRACE", "/api/v1/health");
    expect(refusal).toMatchObject({ status: 405, code: "method_not_allowed" });
    expect(refusal!.headers.Allow).toContain("GET");
    expect(refuseRawRequest("CONNECT", "/")).not.toBeNull();
    expect(refuseRawRequest("OPTIONS", "/api/v1/health")).toBeNull();
  });

  it("API paths get the JSON envelope, UI paths an HTML page", () => {
    const refusal = refuseRawRequest("GET", "/api/v1/history/%ff")!;
    expect(isApiPath("/api/v1/history/%ff")).toBe(true);
    expect(isApiPath("/health")).toBe(true);
    expect(isApiPath("/history/%ff")).toBe(false);
    expect(JSON.parse(refusalBody(refusal, true).body)).toEqual({ error: "invalid_request", message: expect.any(String), detail: null });
    expect(refusalBody(refusal, false).body).toMatch(/^<!doctype html>/);
  });
});
