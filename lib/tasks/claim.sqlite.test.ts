import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { claimNextTask, createTask } from "./store";
import { queuedTask as task } from "@/tests/kits/test-tasks";

// On SQLite: a claim is a read of the oldest pending task and then a conditional update, so another
// process can take the task in between. A claimer that loses such races must go on to the next pending task, however
// many it loses: "none left" stops this process's pump until the next wake while tasks wait (a clean-clone CI run saw
// one of two claiming processes end with nothing when claims gave up after five lost races).

withTempDatabase("task-claim");

beforeEach(async () => {
  await db().analysisTask.deleteMany();
});

describe("claiming a task on SQLite while another process claims too", () => {
  it("a claimer that loses eight races in a row still takes a task; none is taken twice", async () => {
    for (let i = 0; i < 10; i++) await createTask(task(`T${i}`));
    const tasks = db().analysisTask;
    const updateMany = tasks.updateMany.bind(tasks);
    let lost = 0;
    // The other process's claim lands between this one's read and its update, eight times.
    const spy = vi.spyOn(tasks, "updateMany").mockImplementation((async (args: Parameters<typeof updateMany>[0]) => {
      if (lost < 8) {
        lost++;
        await updateMany({ where: args.where, data: { status: "processing", leaseOwner: "other:2:b" } });
      }
      return updateMany(args);
    }) as never);
    try {
      const mine = await claimNextTask("me:1:a");
      expect(lost).toBe(8);
      expect(mine).toMatchObject({ status: "processing", leaseOwner: "me:1:a" });
      expect(await tasks.count({ where: { leaseOwner: "other:2:b" } })).toBe(8);
      expect(await tasks.count({ where: { status: "pending" } })).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });

  it("a claimer that loses every race answers none left once nothing is pending", async () => {
    for (let i = 0; i < 3; i++) await createTask(task(`U${i}`));
    const tasks = db().analysisTask;
    const updateMany = tasks.updateMany.bind(tasks);
    const spy = vi.spyOn(tasks, "updateMany").mockImplementation((async (args: Parameters<typeof updateMany>[0]) => {
      await updateMany({ where: args.where, data: { status: "processing", leaseOwner: "other:2:b" } });
      return updateMany(args);
    }) as never);
    try {
      expect(await claimNextTask("me:1:a")).toBeNull();
      expect(spy).toHaveBeenCalledTimes(3); // one lost race per task: the other's claim came first each time
      expect(await tasks.count({ where: { status: "pending" } })).toBe(0);
    } finally {
      spy.mockRestore();
    }
  });
});
