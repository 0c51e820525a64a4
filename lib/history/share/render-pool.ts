import os from "node:os";
import path from "node:path";
import { Piscina } from "piscina";
import { logger } from "@/lib/log/logger";
import { loadShareFonts, type ShareFont } from "./fonts";
import { tuneRendererAllocator } from "./renderer-allocator";

// Share cards are drawn on renderer threads (render-worker.mjs under piscina), never on the event loop: satori's
// layout and resvg's raster of a full card take a few hundred milliseconds of CPU. One card per thread, one thread
// per core up to four, each at a lower CPU priority than the event loop (Linux: a thread's own nice value), so a
// burst of renders leaves the service's other requests their core. A thread that dies or hangs fails only its card
// and piscina starts another.

export const DEFAULT_WORKER_FILE = path.join(process.cwd(), "lib", "history", "share", "render-worker.mjs");
const JOB_TIMEOUT_MS = 30_000;
/** Nice value added on each renderer thread: the event loop goes first when both want a core. */
const NICE_INCREMENT = 10;
/**
 * The renderer threads' young generation, in MB: satori makes a card's worth of short-lived objects (styles, shaped
 * text, path strings), which V8's default scavenged many times per card. Memory is only committed as used.
 */
const YOUNG_GENERATION_MB = 64;

export interface SharePoolOptions {
  size?: number;
  workerFile?: string;
  loadFonts?: () => Promise<ShareFont[]>;
  timeoutMs?: number;
}

export class SharePool {
  readonly size: number;
  private readonly workerFile: string;
  private readonly loadFonts: () => Promise<ShareFont[]>;
  private readonly timeoutMs: number;
  private threads: Promise<Piscina> | null = null;
  private live: Piscina | null = null;
  private closed = false;

  constructor(options: SharePoolOptions = {}) {
    this.size = Math.max(1, options.size ?? Math.min(4, os.availableParallelism()));
    this.workerFile = options.workerFile ?? DEFAULT_WORKER_FILE;
    this.loadFonts = options.loadFonts ?? (() => loadShareFonts());
    this.timeoutMs = options.timeoutMs ?? JOB_TIMEOUT_MS;
  }

  /** Threads alive now. */
  get running(): number {
    return this.live?.threads.length ?? 0;
  }

  /** The element drawn as a PNG `width` pixels wide, as tall as its content, by the next free thread. */
  async render(element: unknown, width: number): Promise<Uint8Array> {
    if (this.closed) throw new Error("share renderer closed");
    const threads = await this.start();
    return (await threads.run({ element, width }, { signal: AbortSignal.timeout(this.timeoutMs) })) as Uint8Array;
  }

  /** Stops every thread; queued and running cards fail. */
  async close(): Promise<void> {
    this.closed = true;
    const threads = await this.threads?.catch(() => null);
    await threads?.close({ force: true });
    this.live = null;
  }

  /** The threads, started on the first card once the fonts are read; a failed font read is tried again next time. */
  private start(): Promise<Piscina> {
    this.threads ??= this.loadFonts().then((fonts) => {
      tuneRendererAllocator();
      const threads = new Piscina({
        filename: this.workerFile,
        minThreads: this.size,
        maxThreads: this.size,
        idleTimeout: Number.POSITIVE_INFINITY,
        niceIncrement: NICE_INCREMENT,
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
        workerData: { fonts },
      });
      // A thread that fails outside a card (its module cannot load, say): the card it was given has failed already.
      threads.on("error", (error: unknown) => logger.warn({ err: error }, "share renderer thread failed"));
      this.live = threads;
      return threads;
    });
    this.threads.catch(() => (this.threads = null));
    return this.threads;
  }
}

// One pool per process (globalThis: Next may load this module more than once).
const holder = globalThis as typeof globalThis & { dsaSharePool?: SharePool };

export function sharePool(): SharePool {
  return (holder.dsaSharePool ??= new SharePool());
}
