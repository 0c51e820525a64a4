import { sealData } from "iron-session";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { testDatabaseKind, withTempDatabase } from "@/tests/kits/db/temp-database";
import { isThenable } from "@/lib/soon";
import { createSession, revokeSession, SESSION_COOKIE, sessionOf } from "./session";

// vi.mock is hoisted: the module under test gets the counting unsealData.
const unseals = vi.hoisted(() => ({ count: 0 }));
vi.mock("iron-session", async (importOriginal) => {
  const original = await importOriginal<typeof import("iron-session")>();
  return {
    ...original,
    unsealData: (...args: Parameters<typeof original.unsealData>) => {
      unseals.count += 1;
      return original.unsealData(...args);
    },
  };
});

// The admin session check on every request remembers cookies that unsealed, and still reads the
// session's row each time. Runs on SQLite (the direct reader) and, in the unit-pg pass, on PostgreSQL (Prisma).

const SECRET = "s".repeat(40);
const database = withTempDatabase("session", { SESSION_SECRET: SECRET });

const requestWith = (cookie: string) =>
  new Request("http://localhost/api/v1/history", { headers: { cookie: `${SESSION_COOKIE}=${cookie}` } });

afterEach(() => {
  setClock(null);
  database.useSettings({ SESSION_SECRET: SECRET });
});

describe("sessionOf", () => {
  it("unseals a cookie once; every repeat still reads the row, so a revocation counts from the next request", async () => {
    const { sid, cookieValue } = await createSession();
    const before = unseals.count;
    for (let i = 0; i < 5; i++) expect(await sessionOf(requestWith(cookieValue))).toEqual({ sid });
    expect(unseals.count - before).toBe(1);
    await revokeSession(sid);
    expect(await sessionOf(requestWith(cookieValue))).toBeNull();
  });

  it("on SQLite a remembered cookie is answered at once, without a promise; a cookie seen for the first time is waited for", async () => {
    const { sid, cookieValue } = await createSession();
    const first = sessionOf(requestWith(cookieValue));
    expect(isThenable(first)).toBe(true);
    expect(await first).toEqual({ sid });
    const again = sessionOf(requestWith(cookieValue));
    // PostgreSQL's read is a query over the network: always a promise there.
    expect(isThenable(again)).toBe(testDatabaseKind() === "postgres");
    expect(await again).toEqual({ sid });
    await revokeSession(sid);
    expect(await sessionOf(requestWith(cookieValue))).toBeNull();
  });

  it("a remembered cookie whose session expired or whose row is gone is refused", async () => {
    const { sid, cookieValue } = await createSession();
    expect(await sessionOf(requestWith(cookieValue))).toEqual({ sid });
    const row = await db().adminSession.findUniqueOrThrow({ where: { id: sid } });
    setClock(() => new Date(row.expiresAt.getTime() + 1000));
    expect(await sessionOf(requestWith(cookieValue))).toBeNull();
    setClock(null);
    expect(await sessionOf(requestWith(cookieValue))).toEqual({ sid });
    await db().adminSession.delete({ where: { id: sid } });
    expect(await sessionOf(requestWith(cookieValue))).toBeNull();
  });

  // PostgreSQL keeps the expiry in a timestamp without time zone (UTC): read in the process's zone it would move by
  // the zone's offset (a session ending 8 hours early in Shanghai, 5 hours late in New York).
  it("a session's expiry is the same instant whatever the process's time zone", async () => {
    const { sid, cookieValue } = await createSession();
    const { expiresAt } = await db().adminSession.findUniqueOrThrow({ where: { id: sid } });
    const zone = process.env.TZ;
    try {
      for (const tz of ["Asia/Shanghai", "America/New_York", "UTC"]) {
        process.env.TZ = tz;
        setClock(() => new Date(expiresAt.getTime() - 60_000));
        expect(await sessionOf(requestWith(cookieValue)), tz).toEqual({ sid });
        setClock(() => new Date(expiresAt.getTime() + 60_000));
        expect(await sessionOf(requestWith(cookieValue)), tz).toBeNull();
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("a remembered cookie is refused once the secret it was sealed with changes", async () => {
    const { sid, cookieValue } = await createSession();
    expect(await sessionOf(requestWith(cookieValue))).toEqual({ sid });
    database.useSettings({ SESSION_SECRET: "t".repeat(40) });
    expect(await sessionOf(requestWith(cookieValue))).toBeNull();
    database.useSettings({ SESSION_SECRET: SECRET });
    expect(await sessionOf(requestWith(cookieValue))).toEqual({ sid });
  });

  it("refuses a tampered cookie, a cookie sealed with another secret and one without a session id, every time", async () => {
    const { cookieValue } = await createSession();
    const tampered = cookieValue.slice(0, -4) + (cookieValue.endsWith("AAAA") ? "BBBB" : "AAAA");
    const foreign = await sealData({ sid: "x" }, { password: "u".repeat(40), ttl: 3600 });
    const empty = await sealData({}, { password: SECRET, ttl: 3600 });
    for (let i = 0; i < 2; i++) {
      for (const cookie of [tampered, foreign, empty, "not-a-seal"])
        expect(await sessionOf(requestWith(cookie))).toBeNull();
    }
    expect(await sessionOf(new Request("http://localhost/api/v1/history"))).toBeNull();
  });

  it("a seal past its own expiry is unsealed again (and refused by iron) even when remembered", async () => {
    const { sid } = await createSession();
    // A cookie naming a live session, sealed to expire at once (iron allows 60 s of clock skew, then refuses it).
    const shortLived = await sealData({ sid }, { password: SECRET, ttl: 1 });
    expect(await sessionOf(requestWith(shortLived))).toEqual({ sid });
    const before = unseals.count;
    const realNow = Date.now();
    const clock = vi.spyOn(Date, "now").mockReturnValue(realNow + 120_000);
    try {
      expect(await sessionOf(requestWith(shortLived))).toBeNull();
      expect(unseals.count - before).toBe(1);
    } finally {
      clock.mockRestore();
    }
  });
});
