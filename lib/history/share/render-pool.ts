import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { logger } from "@/lib/log/logger";
import { loadShareFonts, type ShareFont } from "./fonts";
import type { DeflatedStrip } from "./png-encode";
import { tuneRendererAllocator } from "./renderer-allocator";

// Share cards are drawn by renderer threads (render-worker.mjs), not on the event loop: satori's
// layout and resvg's raster of a full card take a few hundred milliseconds of CPU, which on the main thread stalled
// every other request (and the start-up warm-up stalled a new replica for seconds). One thread per core, up to
// four; a card's strips are queued and each idle thread takes the next, so one card uses every core. A thread that
// dies or hangs fails only the strip it held and is replaced on the next job.

export const DEFAULT_WORKER_FILE = path.join(process.cwd(), "lib", "history", "share", "render-worker.mjs");
const JOB_TIMEOUT_MS = 30_000;
/**
 * The renderer threads' young generation, in MB. satori makes a strip's worth of short-lived objects (styles, shaped
 * text, path strings): with V8's default a thread scavenged many times per card, copying what was still alive each
 * time. At 64 MB a card's threads were busy ~10 % less (probe, 30 cards on two threads, twice each: 1,712-1,884 ms of
 * work per thread → 1,519-1,627 ms; 128 MB gained nothing more). Memory only committed as used: a few tens of MB.
 */
const YOUNG_GENERATION_MB = 64;

export interface SharePoolOptions {
  size?: number;
  workerFile?: string;
  loadFonts?: () => Promise<ShareFont[]>;
  timeoutMs?: number;
}

interface Job {
  id: number;
  element: unknown;
  width: number;
  resolve(strip: DeflatedStrip): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

type Reply = { id: number; error?: string } & Partial<DeflatedStrip>;

export class SharePool {
  readonly size: number;
  private readonly workerFile: string;
  private readonly loadFonts: () => Promise<ShareFont[]>;
  private readonly timeoutMs: number;
  private fonts: Promise<ShareFont[]> | null = null;
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(options: SharePoolOptions = {}) {
    this.size = Math.max(1, options.size ?? Math.min(4, os.availableParallelism()));
    this.workerFile = options.workerFile ?? DEFAULT_WORKER_FILE;
    this.loadFonts = options.loadFonts ?? (() => loadShareFonts());
    this.timeoutMs = options.timeoutMs ?? JOB_TIMEOUT_MS;
  }

  /** Threads alive now. */
  get running(): number {
    return this.slots.size;
  }

  /**
   * Each element drawn by the next free thread; the strips in the elements' order. With `weights` (a guess at each
   * element's cost) the heaviest are handed out first, so the last strip left to one thread while the others idle is
   * a light one.
   */
  render(elements: readonly unknown[], width: number, weights?: readonly number[]): Promise<DeflatedStrip[]> {
    const order = elements.map((_, i) => i);
    if (weights) order.sort((a, b) => (weights[b] ?? 0) - (weights[a] ?? 0));
    const strips = new Array<Promise<DeflatedStrip>>(elements.length);
    for (const i of order) strips[i] = this.enqueue(elements[i], width);
    return Promise.all(strips);
  }

  /** Stops every thread; queued and running jobs fail. */
  async close(): Promise<void> {
    const slots = [...this.slots];
    this.slots.clear();
    for (const job of this.queue.splice(0)) job.reject(new Error("share renderer closed"));
    await Promise.all(slots.map((slot) => this.retire(slot, new Error("share renderer closed"))));
  }

  private enqueue(element: unknown, width: number): Promise<DeflatedStrip> {
    return new Promise<DeflatedStrip>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, element, width, resolve, reject });
      void this.pump();
    });
  }

  private async pump(): Promise<void> {
    let fonts: ShareFont[];
    try {
      fonts = await (this.fonts ??= this.loadFonts());
    } catch (error) {
      this.fonts = null; // read again on the next job
      for (const job of this.queue.splice(0)) job.reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    while (this.queue.length > 0 && this.slots.size < this.size) this.spawn(fonts);
    for (const slot of this.slots) {
      if (slot.job || this.queue.length === 0) continue;
      this.dispatch(slot, this.queue.shift()!);
    }
  }

  private spawn(fonts: ShareFont[]): void {
    let worker: Worker;
    tuneRendererAllocator();
    try {
      worker = new Worker(this.workerFile, { workerData: { fonts }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    } catch (error) {
      for (const job of this.queue.splice(0)) job.reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const slot: Slot = { worker, job: null, timer: null };
    worker.unref();
    worker.on("message", (reply: Reply) => this.settle(slot, reply));
    worker.on("error", (error) => void this.retire(slot, error));
    worker.on("exit", (code) => void this.retire(slot, new Error(`share renderer thread exited (code ${code})`)));
    this.slots.add(slot);
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref(); // a pending card keeps the process alive; an idle thread does not
    slot.timer = setTimeout(() => void this.retire(slot, new Error(`share renderer thread took over ${this.timeoutMs} ms`)), this.timeoutMs);
    slot.worker.postMessage({ id: job.id, element: job.element, width: job.width });
  }

  private settle(slot: Slot, reply: Reply): void {
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    this.release(slot);
    if (reply.error !== undefined) job.reject(new Error(reply.error));
    else job.resolve({ width: reply.width!, height: reply.height!, deflated: reply.deflated!, adler32: reply.adler32!, length: reply.length! });
    void this.pump();
  }

  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.worker.unref();
  }

  /** A thread that failed, hung or exited leaves the pool; its job fails, the queue goes on with a new thread. */
  private async retire(slot: Slot, error: Error): Promise<void> {
    const job = slot.job;
    const known = this.slots.delete(slot);
    this.release(slot);
    if (job) job.reject(error);
    if (known) logger.warn({ err: error }, "share renderer thread stopped");
    await slot.worker.terminate().catch(() => undefined);
    if (this.queue.length > 0) void this.pump();
  }
}

// One pool per process (globalThis: Next may load this module more than once).
const holder = globalThis as typeof globalThis & { dsaSharePool?: SharePool };

export function sharePool(): SharePool {
  return (holder.dsaSharePool ??= new SharePool());
}
