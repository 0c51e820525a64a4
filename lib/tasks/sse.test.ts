import { describe, expect, it } from "vitest";
import type { TaskRow } from "./store";
import { InProcessTaskEventBus, type TaskEvent } from "./event-bus";
import { encodeSseEvent, MAX_UNREAD_EVENTS, openTaskStream } from "./sse";
import type { TTaskInfo } from "./schemas";

function row(id: string, status = "pending"): TaskRow {
  const at = new Date("2026-11-22T08:00:00Z");
  return {
    id,
    traceId: "t",
    kind: "analysis",
    stockCode: id,
    stockName: null,
    market: "cn",
    assetType: "stock",
    activeKey: `stock:cn:${id}`,
    request: "{}",
    originalQuery: null,
    selectionSource: null,
    reportType: "detailed",
    analysisPhase: "auto",
    skills: null,
    region: "cn",
    status,
    progress: 0,
    message: null,
    error: null,
    errorCode: null,
    errorParams: null,
    attempts: 0,
    leaseOwner: null,
    leaseUntil: null,
    createdAt: at,
    startedAt: null,
    completedAt: null,
  };
}

function info(id: string, status: TTaskInfo["status"] = "processing"): TTaskInfo {
  return {
    task_id: id,
    stock_code: id,
    status,
    created_at: "2026-11-22T08:00:00.000Z",
    progress: 10,
    analysis_phase: "auto",
  };
}

async function readEvents(
  stream: ReadableStream<Uint8Array>,
  count: number,
): Promise<{ event: string; data: unknown }[]> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const events: { event: string; data: unknown }[] = [];
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
    let end = text.indexOf("\n\n");
    while (end >= 0) {
      const [eventLine, dataLine] = text.slice(0, end).split("\n");
      events.push({ event: eventLine!.slice(7), data: JSON.parse(dataLine!.slice(6)) });
      text = text.slice(end + 2);
      end = text.indexOf("\n\n");
    }
  }
  reader.releaseLock();
  return events;
}

describe("task stream (spec 6)", () => {
  it("wire format: event line, data line with one JSON object, blank line", () => {
    expect(encodeSseEvent("heartbeat", { timestamp: "x" })).toBe('event: heartbeat\ndata: {"timestamp":"x"}\n\n');
  });

  it("connected first, then task_created for active tasks, then events that happened meanwhile (no duplicate created)", async () => {
    const bus = new InProcessTaskEventBus();
    let release: (rows: TaskRow[]) => void = () => {};
    const loadActive = () => new Promise<TaskRow[]>((resolve) => (release = resolve));
    const stream = openTaskStream({ bus, heartbeatMs: 60_000, loadActive });
    // While the active list is being read, a task is created and another one starts.
    bus.publish({ type: "task_created", task: info("B", "pending") });
    bus.publish({ type: "task_started", task: info("A") });
    release([row("A", "processing"), row("B")]);
    const events = await readEvents(stream, 4);
    expect(events.map((e) => e.event)).toEqual(["connected", "task_created", "task_created", "task_started"]);
    expect(events.slice(1, 3).map((e) => (e.data as TTaskInfo).task_id)).toEqual(["A", "B"]);
    bus.publish({ type: "task_completed", task: info("A", "completed") });
    expect((await readEvents(stream, 1))[0]!.event).toBe("task_completed");
    await stream.cancel();
    expect(bus.listenerCount()).toBe(0);
  });

  it("unsubscribes when the client disconnects: no listener survives 50 connect/abort cycles", async () => {
    const bus = new InProcessTaskEventBus();
    for (let i = 0; i < 50; i++) {
      const abort = new AbortController();
      const stream = openTaskStream({ bus, heartbeatMs: 60_000, signal: abort.signal, loadActive: async () => [] });
      await readEvents(stream, 1);
      expect(bus.listenerCount()).toBe(1);
      abort.abort();
      expect(bus.listenerCount()).toBe(0);
    }
  });

  it("heartbeat after the quiet interval, with a timestamp", async () => {
    const bus = new InProcessTaskEventBus();
    const stream = openTaskStream({ bus, heartbeatMs: 50, loadActive: async () => [] });
    const events = await readEvents(stream, 2);
    expect(events[1]!.event).toBe("heartbeat");
    expect(Number.isNaN(Date.parse((events[1]!.data as { timestamp: string }).timestamp))).toBe(false);
    await stream.cancel();
  });

  it("a client that stops reading is dropped after MAX_UNREAD_EVENTS; a reading client still gets every event", async () => {
    const bus = new InProcessTaskEventBus();
    const slow = openTaskStream({ bus, heartbeatMs: 60_000, loadActive: async () => [] });
    const fast = openTaskStream({ bus, heartbeatMs: 60_000, loadActive: async () => [] });
    await new Promise((r) => setTimeout(r, 10));
    const reader = fast.getReader();
    let received = 0;
    const reading = (async () => {
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        received += decoder.decode(value).split("event: task_progress").length - 1;
        if (received >= MAX_UNREAD_EVENTS + 200) return;
      }
    })();
    for (let i = 0; i < MAX_UNREAD_EVENTS + 200; i++) {
      const event: TaskEvent = { type: "task_progress", task: info(`T${i}`) };
      bus.publish(event);
      if (i % 100 === 0) await new Promise((r) => setTimeout(r, 0));
    }
    await reading;
    expect(received).toBe(MAX_UNREAD_EVENTS + 200);
    // The slow one was closed and unsubscribed; only the fast one still listens.
    expect(bus.listenerCount()).toBe(1);
    const slowReader = slow.getReader();
    let chunks = 0;
    for (;;) {
      const { done } = await slowReader.read();
      if (done) break;
      chunks++;
    }
    expect(chunks).toBeLessThanOrEqual(MAX_UNREAD_EVENTS + 2);
    reader.releaseLock();
    await fast.cancel();
    expect(bus.listenerCount()).toBe(0);
  });
});
