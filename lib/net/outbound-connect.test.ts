import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { guardedAgent, guardedFetch, guardedLookup, outboundRefusalOf, pinnedAddress } from "./outbound-connect";
import { OutboundRefusedError } from "./outbound-policy";

// DNS rebinding. The name passes the check (a public address) and then answers 127.0.0.1 when
// the socket connects: the connect-time lookup must refuse it, whatever the first answer was.

type Answer = { address: string; family: number }[];
function fakeDns(answers: Answer[]) {
  let call = 0;
  const calls: string[] = [];
  const resolve = (
    hostname: string,
    _options: unknown,
    callback: (error: NodeJS.ErrnoException | null, addresses: Answer) => void,
  ) => {
    calls.push(hostname);
    const answer = answers[Math.min(call++, answers.length - 1)]!;
    setImmediate(() => callback(null, answer));
  };
  return { resolve, calls };
}

const PUBLIC = [{ address: "93.184.215.14", family: 4 }];
const LOOPBACK = [{ address: "127.0.0.1", family: 4 }];

let server: http.Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  setEnvironmentForTests({
    ENV_FILE: path.join(os.tmpdir(), "dsa-outbound-connect-missing.env"),
    OUTBOUND_ALLOW_PRIVATE: "false",
  });
  server = http.createServer((_req, res) => {
    hits++;
    res.end("inside");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  setEnvironmentForTests(process.env);
  await new Promise((resolve) => server.close(resolve));
});

describe("the outbound policy holds at connect time (DNS rebinding)", () => {
  it("the lookup refuses a name whose answer is private, in both the single and the all form", async () => {
    const { resolve } = fakeDns([[...PUBLIC, ...LOOPBACK]]);
    const lookup = guardedLookup(() => false, resolve);
    const single = await new Promise<unknown>((done) => lookup("rebind.example", {}, (error) => done(error)));
    expect(single).toBeInstanceOf(OutboundRefusedError);
    expect((single as Error).message).toMatch(/rebind\.example resolves to 127\.0\.0\.1/);
    const publicOnly = guardedLookup(() => false, fakeDns([PUBLIC]).resolve);
    const all = await new Promise<unknown>((done) =>
      publicOnly("public.example", { all: true }, (error, addresses) => done(error ?? addresses)),
    );
    expect(all).toEqual(PUBLIC);
    const first = await new Promise<unknown[]>((done) => publicOnly("public.example", {}, (...args) => done(args)));
    expect(first).toEqual([null, "93.184.215.14", 4]);
  });

  it("a fetch through the guarded agent never reaches a listener on 127.0.0.1 by a name that rebinds to it", async () => {
    const dns = fakeDns([LOOPBACK]);
    const agent = guardedAgent(() => false, dns.resolve);
    // The name check before the request is bypassed here (OUTBOUND_ALLOW_PRIVATE would pass it), as a
    // first public answer would: only the connect-time lookup stands between the request and the listener.
    setEnvironmentForTests({
      ENV_FILE: path.join(os.tmpdir(), "dsa-outbound-connect-missing.env"),
      OUTBOUND_ALLOW_PRIVATE: "true",
    });
    try {
      const error = await guardedFetch(`http://rebind.example:${port}/`, {}, agent).then(
        () => null,
        (e: unknown) => e,
      );
      expect(outboundRefusalOf(error)).toBeInstanceOf(OutboundRefusedError);
      expect(dns.calls).toEqual(["rebind.example"]);
      expect(hits).toBe(0);
      // The same agent with private destinations allowed connects: the refusal was the lookup's, nothing else.
      const open = guardedAgent(() => true, fakeDns([LOOPBACK]).resolve);
      const res = await guardedFetch(`http://rebind.example:${port}/`, {}, open);
      expect(await res.text()).toBe("inside");
      expect(hits).toBe(1);
    } finally {
      setEnvironmentForTests({
        ENV_FILE: path.join(os.tmpdir(), "dsa-outbound-connect-missing.env"),
        OUTBOUND_ALLOW_PRIVATE: "false",
      });
    }
  });

  it("with the policy on, the check before the request refuses a private literal address without any lookup", async () => {
    const dns = fakeDns([PUBLIC]);
    const error = await guardedFetch(
      `http://127.0.0.1:${port}/`,
      {},
      guardedAgent(() => false, dns.resolve),
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(outboundRefusalOf(error)?.message).toMatch(/127\.0\.0\.1 is a loopback/);
    expect(dns.calls).toEqual([]);
  });

  it("SMTP (nodemailer resolves names itself) is given the checked address: a private answer is refused", async () => {
    await expect(pinnedAddress("smtp.rebind.example", fakeDns([LOOPBACK]).resolve)).rejects.toBeInstanceOf(
      OutboundRefusedError,
    );
    expect(await pinnedAddress("smtp.public.example", fakeDns([PUBLIC]).resolve)).toBe("93.184.215.14");
    expect(await pinnedAddress("[2606:4700::1111]")).toBe("2606:4700::1111");
  });
});
