import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { closeRedisConnections, RedisConnection } from "./connection";
import { LeaderLock } from "./leader-lock";
import { dropTestNamespace, REDIS_TEST_URL, sleep, useRedisSettings, useTestNamespace } from "@/tests/kits/redis-test";

// The alert evaluator and the schedule tick run on one replica at a time. Two contenders with their
// own connections stand for two replicas.

let namespace = "";
const opened: RedisConnection[] = [];

async function contender(name = "job"): Promise<LeaderLock> {
  const connection = new RedisConnection(REDIS_TEST_URL);
  opened.push(connection);
  await connection.usableClient();
  return new LeaderLock(name, () => connection);
}

beforeEach(() => {
  namespace = useTestNamespace();
});
afterEach(async () => {
  for (const connection of opened.splice(0)) connection.close();
  closeRedisConnections();
  await dropTestNamespace(namespace);
});
afterAll(() => setEnvironmentForTests(process.env));

describe("leader lock", () => {
  it("one of two contenders holds it; the holder keeps it by renewing; the other takes over once it expires", async () => {
    const a = await contender();
    const b = await contender();
    // TTLs and waits leave half a second either way for a loaded machine's timer and Redis delays.
    expect(await a.claim(1500)).toBe(true);
    expect(await b.claim(1500)).toBe(false);
    await sleep(700);
    // The holder renews (its next tick); the other still finds it taken after the first TTL would have ended.
    expect(await a.claim(1500)).toBe(true);
    await sleep(1000);
    expect(await b.claim(1500)).toBe(false);
    // The holder stops renewing (it died): after the TTL the other takes over, and the old holder has lost it.
    await sleep(1000);
    expect(await b.claim(1500)).toBe(true);
    expect(await a.claim(1500)).toBe(false);
  }, 15_000);

  it("at most one of many contenders claiming at once wins", async () => {
    const locks = await Promise.all(Array.from({ length: 6 }, () => contender()));
    const wins = await Promise.all(locks.map((lock) => lock.claim(5000)));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it("release hands the job over at once; a non-holder's release does not free the holder's lock", async () => {
    const a = await contender();
    const b = await contender();
    const c = await contender();
    expect(await a.claim(10_000)).toBe(true);
    await b.release();
    expect(await c.claim(10_000)).toBe(false);
    await a.release();
    expect(await c.claim(10_000)).toBe(true);
  });

  it("a released lock (a stopping process) claims nothing more: a pass still running cannot renew it back", async () => {
    const a = await contender();
    const b = await contender();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const pass = a.run(150, async () => {
      started();
      await sleep(400);
      return "late";
    });
    await running;
    await a.release();
    expect(await b.claim(10_000)).toBe(true);
    // a's renewal timer fires twice more while its pass runs; b keeps the lock.
    expect(await pass).toEqual({ ran: true, value: "late" });
    expect(await a.claim(10_000)).toBe(false);
    expect(await b.claim(10_000)).toBe(true);
  });

  it("run(): the work runs on the holder only, and a pass longer than the TTL keeps the lock while it runs", async () => {
    const a = await contender();
    const b = await contender();
    let runs = 0;
    // Renewals every 300 ms; b tries after the first TTL would have ended, while two renewals have extended it.
    const pass = a.run(900, async () => {
      runs += 1;
      await sleep(2000);
      return "done";
    });
    await sleep(1200);
    expect(await b.run(900, async () => void (runs += 1))).toEqual({ ran: false });
    expect(await pass).toEqual({ ran: true, value: "done" });
    expect(runs).toBe(1);
  }, 15_000);

  it("different jobs have different locks", async () => {
    const alerts = await contender("alerts");
    const schedule = await contender("schedule");
    expect(await alerts.claim(5000)).toBe(true);
    expect(await schedule.claim(5000)).toBe(true);
  });

  it("without REDIS_URL every process runs the job, as before", async () => {
    useRedisSettings(null);
    const a = new LeaderLock("job");
    const b = new LeaderLock("job");
    expect(await a.claim(1000)).toBe(true);
    expect(await b.claim(1000)).toBe(true);
    expect(await b.run(1000, async () => 7)).toEqual({ ran: true, value: 7 });
  });
});
