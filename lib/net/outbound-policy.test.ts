import { describe, expect, it } from "vitest";
import { hostRefusal, isPrivateAddress, literalOutboundRefusal, outboundRefusal } from "./outbound-policy";

describe("the outbound URL policy (SSRF)", () => {
  it("refuses loopback, link-local (cloud metadata), private ranges and IPv6 loopback/ULA/link-local", async () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://127.0.0.1:6379/",
      "http://[::1]:8080/",
      "http://2130706433:80/",
      "http://0x7f.1/",
      "http://10.1.2.3/hook",
      "http://172.20.0.1/",
      "http://192.168.1.1/",
      "http://[fd00::1]/",
      "http://[fe80::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://0.0.0.0/",
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://localhost:3000/",
    ]) {
      expect(await outboundRefusal(url, false), url).toMatch(/OUTBOUND_ALLOW_PRIVATE/);
    }
  });

  it("refuses the rarer loopback forms: IPv4-compatible, 6to4 and Teredo IPv6, and a name with the root's dot", async () => {
    for (const url of [
      "http://[::127.0.0.1]/",
      "http://[2002:7f00:1::]/",
      "http://[2002:a00:1::]/",
      "http://[2002:a9fe:a9fe::]/",
      "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
      "http://localhost./",
      "http://metadata.google.internal./",
    ]) {
      expect(await outboundRefusal(url, false), url).toMatch(/OUTBOUND_ALLOW_PRIVATE/);
    }
    // A 6to4 address of a public IPv4 stays public.
    expect(isPrivateAddress("2002:5db8:d70e::1")).toBe(false);
    expect(await hostRefusal("localhost.", false)).toMatch(/OUTBOUND_ALLOW_PRIVATE/);
    expect(await hostRefusal("[::127.0.0.1]", false)).toMatch(/OUTBOUND_ALLOW_PRIVATE/);
  });

  it("refuses other schemes even when private destinations are allowed", () => {
    for (const url of ["file:///etc/passwd", "gopher://127.0.0.1:6379/_x", "ftp://example.com/"]) {
      expect(literalOutboundRefusal(url, true), url).toMatch(/scheme/);
    }
  });

  it("a name is checked on every address it resolves to, after DNS", async () => {
    const resolve = async (host: string) =>
      host === "intranet.example"
        ? [{ address: "93.184.215.14" }, { address: "10.0.0.5" }]
        : [{ address: "93.184.215.14" }];
    expect(await outboundRefusal("http://intranet.example/hook", false, resolve)).toMatch(/resolves to 10\.0\.0\.5/);
    expect(await outboundRefusal("http://public.example/hook", false, resolve)).toBeNull();
    expect(
      await outboundRefusal("http://unresolvable.invalid/", false, async () => Promise.reject(new Error("ENOTFOUND"))),
    ).toMatch(/cannot be resolved/);
  });

  it("public addresses pass; OUTBOUND_ALLOW_PRIVATE lets local receivers through", async () => {
    expect(await outboundRefusal("https://93.184.215.14/", false)).toBeNull();
    expect(await outboundRefusal("http://[2606:4700::1111]/", false)).toBeNull();
    expect(await outboundRefusal("http://127.0.0.1:6379/", true)).toBeNull();
    expect(isPrivateAddress("8.8.8.8")).toBe(false);
  });

  it("a bare host (an SMTP server) gets the same address and name checks", async () => {
    expect(await hostRefusal("127.0.0.1", false)).toMatch(/OUTBOUND_ALLOW_PRIVATE/);
    expect(await hostRefusal("metadata.google.internal", false)).toMatch(/metadata/);
    expect(await hostRefusal("smtp.example.com", false, async () => [{ address: "192.168.1.5" }])).toMatch(
      /resolves to 192\.168\.1\.5/,
    );
    expect(await hostRefusal("127.0.0.1", true)).toBeNull();
  });
});
