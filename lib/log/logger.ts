import pino from "pino";
import { getSettings } from "@/lib/config/settings";

// One JSON logger per process. Keys that could carry secrets are censored wherever they appear.
// Lines reach stdout asynchronously (issue 23 §3): with a write per line, every request's access log line stopped the
// event loop whenever stdout's reader (a pipe, a terminal, a log shipper) was slower than the server. pino writes
// what is still buffered when the process exits. Next bundles this module more than once, so the destination is one
// per process (two asynchronous writers on one pipe could split each other's lines), and what waits for a slow reader
// is bounded: past MAX_BUFFERED_BYTES new lines are dropped rather than memory growing without end.
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
// Lines are written in batches of about this many bytes, and at least every FLUSH_EVERY_MS: one write per access-log
// line cost a system call per request (about 5 % of a busy server's time), a batch costs one per ~40 lines.
const BATCH_BYTES = 8 * 1024;
const FLUSH_EVERY_MS = 100;

type Destination = ReturnType<typeof pino.destination>;
const holder = globalThis as typeof globalThis & { dsaLogDestination?: Destination };

function stdoutDestination(): Destination {
  holder.dsaLogDestination ??= pino.destination({ dest: 1, sync: false, minLength: BATCH_BYTES, periodicFlush: FLUSH_EVERY_MS, maxLength: MAX_BUFFERED_BYTES });
  return holder.dsaLogDestination;
}

export const logger = pino(
  {
    level: getSettings().LOG_LEVEL,
    base: { service: "dsa" },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ["*.password", "*.apiKey", "*.api_key", "*.token", "*.secret", "*.authorization", "*.cookie"],
      censor: "[redacted]",
    },
  },
  stdoutDestination(),
);

export function requestLogger(traceId: string) {
  return logger.child({ trace_id: traceId });
}

// The access log line of every API request (issue 23 §3): written by the process logger with the trace id as its first
// field, the same line a request's child logger writes, without making a child per request (pino runs its redaction
// over a child's bindings when it is made, wasted on every request that logs nothing else).
export function accessLogOn(): boolean {
  return logger.isLevelEnabled("info");
}

export function logAccess(traceId: string, line: { method: string; path: string; status: number; ms: number }): void {
  logger.info({ trace_id: traceId, ...line }, "request");
}
