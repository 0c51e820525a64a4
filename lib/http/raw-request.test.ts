import { describe, expect, it } from "vitest";
import {
  clientErrorRefusal,
  isApiPath,
  MAX_URL_LENGTH,
  rawRequestTarget,
  refusalBody,
  refuseRawRequest,
  routeTable,
} from "./raw-request";

describe("request lines Next would answer with a bare 500", () => {
  it("a malformed percent-escape in the path is 400 invalid_request; a valid one passes", () => {
    for (const url of ["/api/v1/history/%ff", "/api/v1/history/%", "/history/%E4%B8", "/%zz?x=1"]) {
      expect(refuseRawRequest("GET", url), url).toMatchObject({ status: 400, code: "invalid_request" });
    }
    expect(refuseRawRequest("GET", "/api/v1/history/%E4%B8%AD?q=%ff")).toBeNull();
  });

  it("a request target past 8 KiB is 414 uri_too_long (Next would echo it in a Location no client can read)", () => {
    const long = `/api/v1/data/csv/%2e%2e?q=${"%ED%A0%80".repeat(3000)}`;
    expect(refuseRawRequest("DELETE", long)).toMatchObject({ status: 414, code: "uri_too_long" });
    expect(refuseRawRequest("GET", `/api/v1/history?q=${"a".repeat(MAX_URL_LENGTH - 30)}`)).toBeNull();
  });

  it("the asterisk form (GET * HTTP/1.1) is 400 invalid_request, for any method", () => {
    for (const method of ["GET", "POST", "OPTIONS"])
      expect(refuseRawRequest(method, "*"), method).toMatchObject({ status: 400, code: "invalid_request" });
    expect(refuseRawRequest("GET", "/*")).toBeNull();
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
    expect(isApiPath("/mcp")).toBe(true);
    expect(isApiPath("/mcpx")).toBe(false);
    expect(isApiPath("/webhooks/telegram")).toBe(true);
    expect(isApiPath("/history/%ff")).toBe(false);
    expect(JSON.parse(refusalBody(refusal, true).body)).toEqual({
      error: "invalid_request",
      message: expect.any(String),
      detail: null,
    });
    expect(refusalBody(refusal, false).body).toMatch(/^<!doctype html>/);
  });
});

describe("fuzz: a method the matched route does not serve is 405 in the envelope (Next's is empty)", () => {
  const routes = routeTable([
    { method: "GET", path: "/api/v1/decision-signals/{signal_id}" },
    { method: "PATCH", path: "/api/v1/decision-signals/{signal_id}/status" },
    { method: "GET", path: "/api/v1/decision-signals/outcomes" },
    { method: "GET", path: "/api/v1/decision-signals" },
    { method: "POST", path: "/api/v1/decision-signals" },
    { method: "GET", path: "/health" },
  ]);

  it("the route is the one Next picks: a fixed segment before a parameter, then backtracking", () => {
    expect(refuseRawRequest("PATCH", "/api/v1/decision-signals/outcomes", routes)).toMatchObject({
      status: 405,
      code: "method_not_allowed",
      headers: { Allow: "GET, HEAD, OPTIONS" },
    });
    // "./" and "%2e/" are resolved as a URL parser does: this is /api/v1/decision-signals/status, the {signal_id} route.
    for (const url of ["/api/v1/decision-signals/./status", "/api/v1/decision-signals/%2e/status?x=1"]) {
      expect(refuseRawRequest("PATCH", url, routes), url).toMatchObject({
        status: 405,
        headers: { Allow: "GET, HEAD, OPTIONS" },
      });
    }
    expect(refuseRawRequest("DELETE", "/api/v1/decision-signals", routes)?.headers.Allow).toBe(
      "GET, POST, HEAD, OPTIONS",
    );
    expect(refuseRawRequest("PUT", "/health", routes)).toMatchObject({ status: 405 });
  });

  it("served methods, HEAD on a GET route, OPTIONS, unknown paths, UI paths and odd slashes stay with Next", () => {
    expect(refuseRawRequest("PATCH", "/api/v1/decision-signals/7/status", routes)).toBeNull();
    expect(refuseRawRequest("HEAD", "/api/v1/decision-signals/7", routes)).toBeNull();
    expect(refuseRawRequest("OPTIONS", "/api/v1/decision-signals/7", routes)).toBeNull();
    expect(refuseRawRequest("POST", "/api/v1/no-such/thing", routes)).toBeNull();
    expect(refuseRawRequest("POST", "/api/v1/decision-signals/7/", routes)).toBeNull();
    expect(refuseRawRequest("POST", "/api/v1//decision-signals/7", routes)).toBeNull();
    expect(refuseRawRequest("DELETE", "/signals", routes)).toBeNull();
  });
});

describe("fuzz: requests Node's HTTP parser refuses", () => {
  it("oversized headers are 431, a timeout 408, anything else 400, each with a code from the table", () => {
    expect(clientErrorRefusal("HPE_HEADER_OVERFLOW")).toMatchObject({ status: 431, code: "request_header_too_large" });
    expect(clientErrorRefusal("ERR_HTTP_REQUEST_TIMEOUT")).toMatchObject({ status: 408, code: "request_timeout" });
    expect(clientErrorRefusal("HPE_INVALID_METHOD")).toMatchObject({ status: 400, code: "invalid_request" });
  });

  it("the raw packet's request target decides between the envelope and a page", () => {
    expect(rawRequestTarget(Buffer.from("GET /api/v1/history?x=aaaa"))).toBe("/api/v1/history?x=aaaa");
    expect(rawRequestTarget(Buffer.from("\u0000garbage"))).toBeUndefined();
    expect(rawRequestTarget(undefined)).toBeUndefined();
    const page = refusalBody(
      refuseRawRequest(
        "PUT",
        "/api/v1/decision-signals/<b>",
        routeTable([{ method: "GET", path: "/api/v1/decision-signals/{id}" }]),
      )!,
      false,
    ).body;
    expect(page).not.toContain("<b>");
  });
});
