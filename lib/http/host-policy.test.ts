import os from "node:os";
import { describe, expect, it } from "vitest";
import { hostNameOf, refuseHost } from "./host-policy";

const base = { ALLOWED_HOSTS: [] as string[], PUBLIC_BASE_URL: "", HOSTNAME: "0.0.0.0", TRUST_X_FORWARDED_FOR: false };
const served = (host: string, settings: Partial<typeof base> = {}) =>
  refuseHost({ host }, { ...base, ...settings }) === null;

describe("hostNameOf", () => {
  it("drops the port, IPv6 brackets and one trailing dot; refuses what is not a host", () => {
    expect(hostNameOf("LocalHost:3000")).toBe("localhost");
    expect(hostNameOf("[::1]:8000")).toBe("::1");
    expect(hostNameOf("dsa.example.com.")).toBe("dsa.example.com");
    expect(hostNameOf("a@evil.example")).toBeNull();
    expect(hostNameOf("evil.example/x")).toBeNull();
    expect(hostNameOf("")).toBeNull();
  });
});

describe("the hosts served (DNS rebinding)", () => {
  it("IP literals, localhost and its subdomains and this machine's name are served without a setting", () => {
    for (const host of ["127.0.0.1:3000", "192.168.1.20", "[::1]:3000", "localhost", "app.localhost:3000"])
      expect(served(host), host).toBe(true);
    expect(served(os.hostname())).toBe(true);
  });

  it("a name that could be re-resolved to this machine is refused, with what to set", () => {
    const message = refuseHost({ host: "rebind.attacker.example:3000" }, base);
    expect(message).toContain("rebind.attacker.example");
    expect(message).toContain("ALLOWED_HOSTS");
    expect(served("localhost.attacker.example")).toBe(false);
    expect(served("127.0.0.1.nip.io")).toBe(false);
  });

  it("PUBLIC_BASE_URL's host and ALLOWED_HOSTS (exact, .suffix, *) are served", () => {
    expect(served("dsa.example.com", { PUBLIC_BASE_URL: "https://dsa.example.com:8443/app" })).toBe(true);
    expect(served("other.example.com", { PUBLIC_BASE_URL: "https://dsa.example.com" })).toBe(false);
    expect(served("box.lan:3000", { ALLOWED_HOSTS: ["box.lan"] })).toBe(true);
    expect(served("a.corp.example", { ALLOWED_HOSTS: [".corp.example"] })).toBe(true);
    expect(served("corp.example", { ALLOWED_HOSTS: [".corp.example"] })).toBe(true);
    expect(served("notcorp.example", { ALLOWED_HOSTS: [".corp.example"] })).toBe(false);
    expect(served("anything.example", { ALLOWED_HOSTS: ["*"] })).toBe(true);
  });

  it("behind a trusted proxy the forwarded host decides; untrusted, the header is ignored", () => {
    const headers = { host: "127.0.0.1:3000", "x-forwarded-host": "rebind.attacker.example" };
    expect(refuseHost(headers, { ...base, TRUST_X_FORWARDED_FOR: true })).not.toBeNull();
    expect(refuseHost(headers, base)).toBeNull();
    expect(
      refuseHost(
        { host: "127.0.0.1", "x-forwarded-host": "dsa.example.com" },
        {
          ...base,
          TRUST_X_FORWARDED_FOR: true,
          ALLOWED_HOSTS: ["dsa.example.com"],
        },
      ),
    ).toBeNull();
  });

  it("a request without Host (HTTP/1.0 tools) names nothing a page could rebind", () => {
    expect(refuseHost({}, base)).toBeNull();
  });
});
