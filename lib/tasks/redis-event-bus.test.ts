import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { closeRedisConnections, RedisConnection } from "@/lib/redis/connection";
import { redisKey } from "@/lib/redis/keys";
import {
  dropTestNamespace,
  REDIS_TEST_URL,
  sleep,
  useRedisSettings,
  useTestNamespace,
  waitFor,
} from "@/tests/kits/redis-test";
import { InProcessTaskEventBus, taskEventBus, type TaskEvent } from "./event-bus";
import { RedisTaskEventBus } from "./redis-event-bus";
import type { TTaskInfo } from "./schemas";

// The task event bus across replicas. Each "replica" is a bus with its own Redis connections, as two
// server processes would have; the channel lives in this file's own namespace.

function event(
  id: string,
  type: TaskEvent["type"] = "task_progress",
  createdAt = "2026-11-22T08:00:00.000Z",
): TaskEvent {
  const task: TTaskInfo = {
    task_id: id,
    stock_code: "600519",
    status: "processing",
    created_at: createdAt,
    progress: 10,
    analysis_phase: "auto",
  };
  return { type, task };
}

/** An event of a task created just now (its events may wait for its task_created). */
function fresh(id: string, type: TaskEvent["type"]): TaskEvent {
  return event(id, type, new Date().toISOString());
}

let namespace = "";
const opened: RedisConnection[] = [];
const buses: RedisTaskEventBus[] = [];

async function replica(
  connection?: RedisConnection,
  creationGraceMs?: number,
): Promise<{ bus: RedisTaskEventBus; seen: string[]; connection: RedisConnection }> {
  const own = connection ?? new RedisConnection(REDIS_TEST_URL);
  if (!connection) opened.push(own);
  const bus = new RedisTaskEventBus(own, redisKey("task-events"), new InProcessTaskEventBus(), creationGraceMs);
  buses.push(bus);
  const seen: string[] = [];
  bus.subscribe((e) => seen.push(e.task.task_id));
  await bus.subscribed();
  await own.usableClient();
  return { bus, seen, connection: own };
}

beforeEach(() => {
  namespace = useTestNamespace();
});
afterEach(async () => {
  for (const bus of buses.splice(0)) bus.close();
  for (const connection of opened.splice(0)) connection.close();
  closeRedisConnections();
  delete (globalThis as { __dsaTaskEventBus?: unknown }).__dsaTaskEventBus;
  await dropTestNamespace(namespace);
});
afterAll(() => setEnvironmentForTests(process.env));

describe("task events across replicas (Redis pub/sub)", () => {
  it("two replicas see each other's events exactly once; the publisher's own listeners get theirs at once", async () => {
    const a = await replica();
    const b = await replica();
    a.bus.publish(event("from-a"));
    // Delivered in the publisher's own turn, before any Redis round trip.
    expect(a.seen).toEqual(["from-a"]);
    b.bus.publish(event("from-b"));
    expect(b.seen).toEqual(["from-b"]);
    await waitFor(() => a.seen.length >= 2 && b.seen.length >= 2);
    // Time for a duplicate (an echo of one's own event) to show up, if one were coming.
    await sleep(150);
    expect(a.seen).toEqual(["from-a", "from-b"]);
    expect(b.seen).toEqual(["from-b", "from-a"]);
  });

  it("two buses on one process's shared connection: still exactly once each", async () => {
    const shared = new RedisConnection(REDIS_TEST_URL);
    opened.push(shared);
    const a = await replica(shared);
    const b = await replica(shared);
    a.bus.publish(event("1"));
    b.bus.publish(event("2"));
    await waitFor(() => a.seen.length >= 2 && b.seen.length >= 2);
    await sleep(150);
    expect(a.seen.sort()).toEqual(["1", "2"]);
    expect(b.seen.sort()).toEqual(["1", "2"]);
  });

  it("a burst of 300 events arrives on the other replica complete, in order, none twice", async () => {
    const a = await replica();
    const b = await replica();
    const ids = Array.from({ length: 300 }, (_, i) => `t${i}`);
    for (const id of ids) a.bus.publish(event(id));
    await waitFor(() => b.seen.length >= ids.length);
    await sleep(100);
    expect(b.seen).toEqual(ids);
    expect(a.seen).toEqual(ids);
  });

  it("an unsubscribed listener hears nothing more; closing a bus stops remote delivery to it", async () => {
    const a = await replica();
    const b = await replica();
    const late: string[] = [];
    const off = b.bus.subscribe((e) => late.push(e.task.task_id));
    expect(b.bus.listenerCount()).toBe(2);
    off();
    off();
    expect(b.bus.listenerCount()).toBe(1);
    b.bus.close();
    a.bus.publish(event("after-close"));
    await sleep(150);
    expect(late).toEqual([]);
    expect(b.seen).toEqual([]);
  });

  it("messages on the channel that are not task events are ignored", async () => {
    const a = await replica();
    const client = (await a.connection.usableClient())!;
    const channel = a.connection.channelName(redisKey("task-events"));
    await client.publish(channel, "not json");
    await client.publish(channel, JSON.stringify({ origin: "x", event: { type: "task_progress" } }));
    await client.publish(channel, JSON.stringify({ origin: "x", event: event("valid") }));
    await waitFor(() => a.seen.length >= 1);
    await sleep(50);
    expect(a.seen).toEqual(["valid"]);
  });

  it("two deployments on one Redis server, each on its own database, never hear each other's events", async () => {
    const url = new URL(REDIS_TEST_URL);
    const onDatabase = (db: number) => {
      const other = new URL(url);
      other.pathname = `/${db}`;
      const connection = new RedisConnection(other.toString());
      opened.push(connection);
      return connection;
    };
    const first = await replica(onDatabase(5));
    const firstPeer = await replica(onDatabase(5));
    const second = await replica(onDatabase(6));
    first.bus.publish(event("deployment-a"));
    await waitFor(() => firstPeer.seen.length >= 1);
    second.bus.publish(event("deployment-b"));
    await waitFor(() => second.seen.length >= 1);
    await sleep(100);
    expect(firstPeer.seen).toEqual(["deployment-a"]);
    expect(second.seen).toEqual(["deployment-b"]);
    expect(first.seen).toEqual(["deployment-a"]);
  });

  it("another replica's events of a task this one is creating wait for its own task_created, then come in order", async () => {
    const a = await replica();
    const b = await replica();
    const kinds: string[] = [];
    b.bus.subscribe((e) => kinds.push(`${e.task.task_id}:${e.type}`));
    // B is between the commit of t1 and its announcement when A (which claimed t1) starts running it.
    const release = b.bus.expectCreation("t1");
    a.bus.publish(event("t1", "task_started"));
    a.bus.publish(event("t1", "task_progress"));
    a.bus.publish(event("other", "task_progress"));
    await waitFor(() => kinds.includes("other:task_progress"));
    expect(kinds).toEqual(["other:task_progress"]);
    b.bus.publish(event("t1", "task_created"));
    expect(kinds).toEqual(["other:task_progress", "t1:task_created", "t1:task_started", "t1:task_progress"]);
    release(); // after the announcement: nothing held, nothing delivered twice
    a.bus.publish(event("t1", "task_completed"));
    await waitFor(() => kinds.length === 5);
    await sleep(100);
    expect(kinds.slice(4)).toEqual(["t1:task_completed"]);
    // A creation that did not happen (a duplicate): its release hands on what was held.
    const releaseDuplicate = b.bus.expectCreation("t2");
    a.bus.publish(event("t2", "task_progress"));
    await sleep(150);
    expect(kinds).not.toContain("t2:task_progress");
    releaseDuplicate();
    expect(kinds.at(-1)).toBe("t2:task_progress");
  });

  it("the replica that claimed a new task before its creator announced it shows task_created first, and so does a third", async () => {
    const creator = await replica();
    const runner = await replica();
    const third = await replica();
    const kinds = (bus: RedisTaskEventBus) => {
      const seen: string[] = [];
      bus.subscribe((e) => seen.push(e.type));
      return seen;
    };
    const onRunner = kinds(runner.bus);
    const onThird = kinds(third.bus);
    const onCreator = kinds(creator.bus);
    runner.bus.publish(fresh("t3", "task_started"));
    runner.bus.publish(fresh("t3", "task_progress"));
    await sleep(150);
    expect(onRunner).toEqual([]);
    creator.bus.publish(fresh("t3", "task_created"));
    const order = ["task_created", "task_started", "task_progress"];
    await waitFor(() => onRunner.length === 3 && onThird.length === 3 && onCreator.length === 3);
    expect(onRunner).toEqual(order);
    expect(onThird).toEqual(order);
    expect(onCreator).toEqual(order);
    // Once created, the task's later events pass at once.
    runner.bus.publish(fresh("t3", "task_completed"));
    expect(onRunner.at(-1)).toBe("task_completed");
  });

  it("a new task's events wait for its task_created no longer than the grace after its creation; an old task's never", async () => {
    const runner = await replica(undefined, 300);
    const seen: string[] = [];
    runner.bus.subscribe((e) => seen.push(`${e.task.task_id}:${e.type}`));
    runner.bus.publish(event("old", "task_started"));
    expect(seen).toEqual(["old:task_started"]);
    const started = Date.now();
    runner.bus.publish(fresh("lonely", "task_started"));
    expect(seen).toEqual(["old:task_started"]);
    await waitFor(() => seen.length === 2);
    expect(seen[1]).toBe("lonely:task_started");
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it("taskEventBus() picks the Redis bus with REDIS_URL and the in-process bus without it", () => {
    useRedisSettings(REDIS_TEST_URL);
    expect(taskEventBus()).toBeInstanceOf(RedisTaskEventBus);
    delete (globalThis as { __dsaTaskEventBus?: unknown }).__dsaTaskEventBus;
    useRedisSettings(null);
    expect(taskEventBus()).toBeInstanceOf(InProcessTaskEventBus);
  });
});
