import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db, disconnectDb } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import {
  claimNextTask,
  createTask,
  finishTask,
  findVisibleTask,
  listVisibleTasks,
  markCarriedOver,
  processOwnerId,
  releaseOwnTasks,
  purgeFinishedTasks,
  queueCounters,
  requeueOrphans,
} from "./store";
import { queuedTask as task } from "@/tests/kits/test-tasks";

const database = withTempDatabase("tasks", { TASK_RETENTION_MINUTES: "10" });
const CHILD = path.resolve("lib/tasks/claim.child-process.ts");

beforeEach(async () => {
  setClock(null);
  await db().analysisTask.deleteMany();
});

describe("task store", () => {
  it("one live task per key: parallel submissions of one key store exactly one, the rest see it as the existing task", async () => {
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => createTask(task("600519"))));
    const created = outcomes.filter((o) => o.created);
    expect(created).toHaveLength(1);
    const id = created[0]!.created ? created[0]!.task.id : "";
    for (const o of outcomes) if (!o.created) expect(o.existing.id).toBe(id);
    expect(await db().analysisTask.count()).toBe(1);
  });

  it("a finished task frees its key; a batch keeps submission order", async () => {
    const first = await createTask(task("AAPL", "us"));
    expect(first.created).toBe(true);
    const claimed = await claimNextTask("me");
    await finishTask(claimed!.id, "me", { status: "completed", message: "done" });
    const second = await createTask(task("AAPL", "us"));
    expect(second.created).toBe(true);
    const a = await createTask(task("A"));
    const b = await createTask(task("B"));
    const c = await createTask(task("C"));
    const order = [
      await claimNextTask("me"),
      await claimNextTask("me"),
      await claimNextTask("me"),
      await claimNextTask("me"),
    ].map((r) => r?.stockCode);
    expect(order).toEqual(["AAPL", "A", "B", "C"]);
    expect([a, b, c].every((o) => o.created)).toBe(true);
  });

  it("claims skip throttled markets", async () => {
    await createTask(task("600519", "cn"));
    await createTask(task("AAPL", "us"));
    expect((await claimNextTask("me", ["cn"]))?.stockCode).toBe("AAPL");
    expect(await claimNextTask("me", ["cn"])).toBeNull();
    expect((await claimNextTask("me"))?.stockCode).toBe("600519");
  });

  it("two processes claiming from one database never take the same task", async () => {
    for (let i = 0; i < 120; i++) await createTask(task(`T${i}`));
    await disconnectDb();
    const start = (owner: string) => {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", CHILD, database.env.DATABASE_URL!, owner, database.env.ENV_FILE!],
        { stdio: ["pipe", "pipe", "inherit"] },
      );
      let out = "";
      let onReady: () => void = () => undefined;
      const ready = new Promise<void>((resolve) => (onReady = resolve));
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString();
        if (out.startsWith("ready\n")) onReady();
      });
      const claimed = new Promise<string[]>((resolve, reject) =>
        child.on("exit", (code) =>
          code === 0
            ? resolve(JSON.parse(out.trim().split("\n").at(-1)!) as string[])
            : reject(new Error(`child exited ${code}`)),
        ),
      );
      return { ready, go: () => child.stdin.end("go\n"), claimed };
    };
    const workers = [start("host:1:a"), start("host:2:b")];
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.go();
    const [one, two] = (await Promise.all(workers.map((w) => w.claimed))) as [string[], string[]];
    const all = [...one, ...two];
    expect(all).toHaveLength(120);
    expect(new Set(all).size).toBe(120);
    expect(one.length).toBeGreaterThan(0);
    expect(two.length).toBeGreaterThan(0);
    expect(await db().analysisTask.count({ where: { status: "processing" } })).toBe(120);
  }, 60_000);

  it("re-queues only tasks whose lease ran out: never a live holder's, whatever its host and pid, nor its own", async () => {
    await createTask(task("SAMEHOST"));
    await createTask(task("MINE"));
    await createTask(task("EXPIRED"));
    await createTask(task("ALIVE"));
    // A holder named like a dead process on this host (another container sharing the host name) keeps its task.
    const sameHost = await claimNextTask(`${os.hostname()}:999999:x`);
    const mine = await claimNextTask(processOwnerId());
    const expired = await claimNextTask("elsewhere:1:z");
    await db().analysisTask.update({ where: { id: expired!.id }, data: { leaseUntil: new Date(Date.now() - 1000) } });
    const alive = await claimNextTask("elsewhere:2:y");
    const requeued = await requeueOrphans(processOwnerId());
    expect(requeued.map((r) => r.id)).toEqual([expired!.id]);
    expect(requeued[0]).toMatchObject({ status: "pending", message: "re-queued after a restart", leaseOwner: null });
    for (const held of [sameHost, mine, alive])
      expect((await db().analysisTask.findUnique({ where: { id: held!.id } }))!.status).toBe("processing");
    // Once its lease runs out, the same-host holder's task goes back too.
    await db().analysisTask.update({ where: { id: sameHost!.id }, data: { leaseUntil: new Date(Date.now() - 1) } });
    expect((await requeueOrphans(processOwnerId())).map((r) => r.id)).toEqual([sameHost!.id]);
  });

  it("a stopping process hands its own running tasks back to the queue, and no one else's", async () => {
    await createTask(task("MINE"));
    await createTask(task("THEIRS"));
    const mine = await claimNextTask("me:1:a");
    const theirs = await claimNextTask("them:2:b");
    expect(await releaseOwnTasks("me:1:a")).toBe(1);
    expect(await db().analysisTask.findUnique({ where: { id: mine!.id } })).toMatchObject({
      status: "pending",
      leaseOwner: null,
      message: "re-queued after a restart",
    });
    expect((await db().analysisTask.findUnique({ where: { id: theirs!.id } }))!.status).toBe("processing");
  });

  it("at start, tasks still waiting from before the restart say so; newer ones and running ones keep their message", async () => {
    const t0 = new Date("2026-11-22T08:00:00Z");
    setClock(() => t0);
    const old = await createTask(task("OLD"));
    setClock(() => new Date(t0.getTime() + 60_000));
    const fresh = await createTask(task("NEW"));
    expect(await markCarriedOver(new Date(t0.getTime() + 30_000))).toBe(1);
    const rows = await db().analysisTask.findMany({ orderBy: { createdAt: "asc" } });
    expect(rows.map((r) => [r.id, r.message])).toEqual([
      [old.created ? old.task.id : "", "re-queued after a restart"],
      [fresh.created ? fresh.task.id : "", "queued"],
    ]);
  });

  it("finished tasks stay visible for the retention window, then leave the view and are purged", async () => {
    const t0 = new Date("2026-11-22T08:00:00Z");
    setClock(() => t0);
    await createTask(task("600519"));
    await createTask(task("000001"));
    const done = await claimNextTask("me");
    await finishTask(done!.id, "me", { status: "completed", message: "ok" });
    expect(await queueCounters()).toEqual({ total: 2, pending: 1, processing: 0 });
    setClock(() => new Date(t0.getTime() + 9 * 60_000));
    expect(await findVisibleTask(done!.id)).not.toBeNull();
    setClock(() => new Date(t0.getTime() + 11 * 60_000));
    expect(await findVisibleTask(done!.id)).toBeNull();
    expect((await listVisibleTasks(20)).map((r) => r.stockCode)).toEqual(["000001"]);
    expect(await purgeFinishedTasks()).toBe(1);
    expect(await db().analysisTask.count()).toBe(1);
  });
});
