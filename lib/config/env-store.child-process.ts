// A separate writer process for env-store.test.ts (run with `node --import tsx`), so the tests can
// exercise the cross-process lock and kill a writer with SIGKILL in the middle of a write.
//   loop <file> <padBytes>      prints "started", waits for "go" on stdin, then rewrites SEQ/PAD/END
//                               forever; prints "ready" after the first write
//   once <file> <version> <v>   wait for "go" on stdin, then one versioned write of VALUE=<v>; prints JSON
// DSA_ENV_STORE_SLOW_FSYNC_MS=<n> makes every fsync take n ms more (a slow disk): the kill test needs its
// kills to land between writing a temporary file and renaming it, and on a fast disk that window is so short
// that a run of two dozen random kills could miss it every time.
import fs from "node:fs";
import readline from "node:readline";
import { updateEnvFile } from "./env-store";

export function loopUpdates(seq: number, padBytes: number): Record<string, string> {
  return { SEQ: String(seq), PAD: `${seq}:`.padEnd(padBytes, "x"), END: String(seq) };
}

let announced = false;

async function waitForGo(): Promise<void> {
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line.trim() === "go") break;
  }
}

async function loop(file: string, padBytes: number): Promise<void> {
  process.stdout.write("started\n");
  await waitForGo();
  // Start from a random sequence so successive children write different contents.
  let seq = 1 + Math.floor(Math.random() * 1_000_000);
  for (;;) {
    // A short stale limit: the test kills writers holding the lock, and the next must not wait long.
    await updateEnvFile({ file, reload: false, lockStaleMs: 2000 }, () => ({
      updates: loopUpdates(seq, padBytes),
      result: null,
    }));
    if (!announced) process.stdout.write("ready\n");
    announced = true;
    seq++;
  }
}

async function once(file: string, version: string, value: string): Promise<void> {
  process.stdout.write("ready\n");
  await waitForGo();
  try {
    const outcome = await updateEnvFile({ file, expectedVersion: version, reload: false }, () => ({
      updates: { VALUE: value },
      result: null,
    }));
    process.stdout.write(`${JSON.stringify({ ok: true, version: outcome.after.version })}\n`);
  } catch (error) {
    const e = error as { code?: string; extra?: Record<string, unknown>; message: string };
    process.stdout.write(
      `${JSON.stringify({ ok: false, code: e.code ?? "error", message: e.message, extra: e.extra ?? {} })}\n`,
    );
  }
  process.exit(0);
}

function slowDownFsync(ms: number): void {
  const fsyncSync = fs.fsyncSync;
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  fs.fsyncSync = (fd: number) => {
    fsyncSync(fd);
    Atomics.wait(sleeper, 0, 0, ms);
  };
}

// Only when started as a child (the tests also import loopUpdates from here).
if (process.env.DSA_ENV_STORE_CHILD === "1") {
  const slowFsyncMs = Number(process.env.DSA_ENV_STORE_SLOW_FSYNC_MS ?? 0);
  if (slowFsyncMs > 0) slowDownFsync(slowFsyncMs);
  const [mode, file, a, b] = process.argv.slice(2);
  if (mode === "loop" && file) void loop(file, Number(a ?? 1024));
  else if (mode === "once" && file && a !== undefined && b !== undefined) void once(file, a, b);
}
