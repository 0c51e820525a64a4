import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/errors/api-error";
import { applyEnvUpdates, parseEnv } from "./env-file";
import { loopUpdates } from "./env-store.child-process";
import { backupPathFor, lockPathFor, MISSING_VERSION, readEnvSnapshot, updateEnvFile } from "./env-store";
import { withFileLock } from "./file-lock";
import { getSettings, setEnvironmentForTests } from "@/lib/settings/settings";

const CHILD = path.resolve("lib/config/env-store.child-process.ts");

let dir: string;
let file: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-env-store-"));
  file = path.join(dir, "app.env");
});

afterEach(() => {
  setEnvironmentForTests(process.env);
  fs.rmSync(dir, { recursive: true, force: true });
});

const set = (updates: Record<string, string>, expectedVersion?: string) =>
  updateEnvFile({ file, expectedVersion, reload: false }, () => ({ updates, result: null }));

describe("4.4 config store: reading and the version token", () => {
  it('is "missing:0" with empty content when there is no file', () => {
    expect(readEnvSnapshot(file)).toMatchObject({
      exists: false,
      content: "",
      values: {},
      version: MISSING_VERSION,
      updatedAt: null,
    });
  });

  it("is <mtime ns>:<sha256> of the bytes and changes whenever the bytes change", () => {
    fs.writeFileSync(file, "A=1\n");
    const first = readEnvSnapshot(file);
    expect(first.version).toMatch(/^\d+:[0-9a-f]{64}$/);
    const sha = createHash("sha256").update("A=1\n").digest("hex");
    expect(first.version).toBe(`${fs.statSync(file, { bigint: true }).mtimeNs}:${sha}`);
    const mtime = fs.statSync(file).mtime;
    fs.writeFileSync(file, "A=2\n");
    fs.utimesSync(file, mtime, mtime); // same mtime: the hash alone must tell the difference
    const second = readEnvSnapshot(file);
    expect(second.version).not.toBe(first.version);
    expect(second.values).toEqual({ A: "2" });
    expect(readEnvSnapshot(file).version).toBe(second.version);
  });
});

describe("4.4 config store: writes", () => {
  it("creates the file (mode 600) when there is none, and the version moves off missing:0", async () => {
    const outcome = await set({ A: "1" }, MISSING_VERSION);
    expect(outcome.written).toBe(true);
    expect(fs.readFileSync(file, "utf8")).toBe("A=1\n");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(outcome.after.version).not.toBe(MISSING_VERSION);
    expect(fs.existsSync(backupPathFor(file))).toBe(false);
  });

  it("keeps a backup of the previous bytes and preserves the file's mode", async () => {
    fs.writeFileSync(file, "# mine\nA=1\n", { mode: 0o640 });
    fs.chmodSync(file, 0o640);
    await set({ A: "2" });
    expect(fs.readFileSync(backupPathFor(file), "utf8")).toBe("# mine\nA=1\n");
    expect(fs.readFileSync(file, "utf8")).toBe("# mine\nA=2\n");
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
    await set({ A: "3" });
    expect(fs.readFileSync(backupPathFor(file), "utf8")).toBe("# mine\nA=2\n");
  });

  it("leaves no temporary or lock files behind", async () => {
    await set({ A: "1" });
    await set({ A: "2" });
    expect(fs.readdirSync(dir).sort()).toEqual(["app.env", "app.env.bak"]);
  });

  it("writes nothing (same bytes, same version) when the values are unchanged", async () => {
    fs.writeFileSync(file, "A=1\n");
    const before = readEnvSnapshot(file);
    const outcome = await set({ A: "1" }, before.version);
    expect(outcome.written).toBe(false);
    expect(readEnvSnapshot(file).version).toBe(before.version);
  });

  it("a stale version is 409 config_version_conflict with the current version, and nothing is written", async () => {
    fs.writeFileSync(file, "A=1\n");
    const stale = readEnvSnapshot(file).version;
    await set({ A: "2" }, stale);
    const current = readEnvSnapshot(file);
    const error = await set({ A: "3" }, stale).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: "config_version_conflict",
      extra: { current_config_version: current.version },
    });
    expect(readEnvSnapshot(file).content).toBe("A=2\n");
  });

  it("a plan that throws writes nothing", async () => {
    fs.writeFileSync(file, "A=1\n");
    const failing = updateEnvFile({ file, reload: false }, () => {
      throw new Error("refused");
    });
    await expect(failing).rejects.toThrow("refused");
    expect(fs.readFileSync(file, "utf8")).toBe("A=1\n");
  });

  it("writes through a symlink to its target and keeps the link", async () => {
    const real = path.join(dir, "real.env");
    fs.writeFileSync(real, "A=1\n");
    fs.symlinkSync(real, file);
    await set({ A: "2" });
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(real, "utf8")).toBe("A=2\n");
    expect(fs.readFileSync(`${real}.bak`, "utf8")).toBe("A=1\n");
  });

  it("creates a missing folder for a new env file", async () => {
    const nested = path.join(dir, "conf", "dsa.env");
    await updateEnvFile({ file: nested, reload: false }, () => ({ updates: { A: "1" }, result: null }));
    expect(fs.readFileSync(nested, "utf8")).toBe("A=1\n");
  });

  it("falls back to rewriting in place when the file cannot be replaced by rename (a bind-mounted file)", async () => {
    fs.writeFileSync(file, "A=1\n");
    const realRename = fs.renameSync;
    const spy = vi.spyOn(fs, "renameSync").mockImplementation((from, to) => {
      if (to === file) throw Object.assign(new Error("EBUSY: resource busy"), { code: "EBUSY" });
      realRename(from, to);
    });
    try {
      const outcome = await set({ A: "2" });
      expect(outcome.inPlace).toBe(true);
    } finally {
      spy.mockRestore();
    }
    expect(fs.readFileSync(file, "utf8")).toBe("A=2\n");
    expect(fs.readFileSync(backupPathFor(file), "utf8")).toBe("A=1\n");
    expect(fs.readdirSync(dir).filter(isTempFile)).toEqual([]);
  });

  it("refuses to rewrite a file that is not valid UTF-8 instead of mangling its bytes", async () => {
    fs.writeFileSync(file, Buffer.from([0x41, 0x3d, 0xff, 0x0a]));
    await expect(set({ B: "1" })).rejects.toThrow(/not valid UTF-8/);
    expect(fs.readFileSync(file)).toEqual(Buffer.from([0x41, 0x3d, 0xff, 0x0a]));
  });

  it("reloads the settings after writing the live ENV_FILE", async () => {
    fs.writeFileSync(file, "LOG_LEVEL=info\n");
    setEnvironmentForTests({ ENV_FILE: file });
    expect(getSettings().LOG_LEVEL).toBe("info");
    const outcome = await updateEnvFile({}, () => ({ updates: { LOG_LEVEL: "error" }, result: null }));
    expect(outcome.reloaded).toBe(true);
    expect(getSettings().LOG_LEVEL).toBe("error");
  });

  it("in-process writers with the same version: exactly one succeeds, the others get the conflict", async () => {
    fs.writeFileSync(file, "VALUE=0\n");
    const version = readEnvSnapshot(file).version;
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => set({ VALUE: String(n) }, version)));
    const ok = results.filter((r) => r.status === "fulfilled");
    const conflicts = results.filter(
      (r) => r.status === "rejected" && (r.reason as ApiError).code === "config_version_conflict",
    );
    expect(ok).toHaveLength(1);
    expect(conflicts).toHaveLength(4);
  });
});

describe("4.4 config store: the cross-process lock (proper-lockfile)", () => {
  // The lock is a folder made with mkdir; its holder refreshes the folder's mtime every stale/2, so one that is
  // not refreshed belongs to a writer that died (SIGKILL, power loss) and is broken after the stale limit.
  it("a lock left by a killed writer is broken once it goes stale", async () => {
    fs.mkdirSync(lockPathFor(file));
    const started = Date.now();
    await updateEnvFile({ file, reload: false, lockStaleMs: 2000 }, () => ({ updates: { A: "1" }, result: null }));
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(1500);
    expect(waited).toBeLessThan(6000);
    expect(fs.readFileSync(file, "utf8")).toBe("A=1\n");
    expect(fs.existsSync(lockPathFor(file))).toBe(false);
  }, 15_000);

  it("a stale lock file left by the previous (hand-written) lock is removed", async () => {
    fs.writeFileSync(lockPathFor(file), JSON.stringify({ pid: 1, host: os.hostname(), token: "x", created: 0 }));
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockPathFor(file), old, old);
    await set({ A: "1" });
    expect(fs.readFileSync(file, "utf8")).toBe("A=1\n");
    expect(fs.existsSync(lockPathFor(file))).toBe(false);
  });

  it("a lock older than the stale limit is broken at once", async () => {
    fs.mkdirSync(lockPathFor(file));
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockPathFor(file), old, old);
    const started = Date.now();
    await set({ A: "1" });
    // Waiting out a live lock would take the 60 s stale limit.
    expect(Date.now() - started).toBeLessThan(3000);
    expect(fs.readFileSync(file, "utf8")).toBe("A=1\n");
  });

  it("a live holder makes others wait, and a holder that never lets go makes them time out", async () => {
    const lock = lockPathFor(file);
    const order: string[] = [];
    let releaseFirst!: () => void;
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const first = withFileLock(
      lock,
      () => new Promise<void>((resolve) => ((releaseFirst = () => (order.push("first done"), resolve())), holding())),
    );
    await held;
    const second = withFileLock(lock, () => order.push("second"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(["first done", "second"]);

    fs.mkdirSync(lock);
    await expect(withFileLock(lock, () => "never", { timeoutMs: 100, staleMs: 60_000 })).rejects.toThrow(/Timed out/);
  });
});

/** write-file-atomic's temporary files: `<target>.<32-bit number>`, for the env file and its backup. */
const isTempFile = (name: string) => /^app\.env(\.bak)?\.\d+$/.test(name);

// Child processes run the real store code (node --import tsx) against the same file.
function startChild(
  args: string[],
  extraEnv: Record<string, string> = {},
): { child: ChildProcess; lines: AsyncIterator<string> } {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], {
    cwd: process.cwd(),
    env: { ...process.env, DSA_ENV_STORE_CHILD: "1", ENV_FILE: path.join(dir, "unrelated.env"), ...extraEnv },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return { child, lines };
}

async function nextLine(lines: AsyncIterator<string>): Promise<string> {
  const { value, done } = await lines.next();
  if (done) throw new Error("child exited early");
  return value;
}

describe("4.4 config store: several processes", () => {
  it("writers in 4 processes holding the same version: exactly one succeeds, the others get the conflict", async () => {
    fs.writeFileSync(file, "# shared\nVALUE=start\n");
    const version = readEnvSnapshot(file).version;
    const children = [1, 2, 3, 4].map((n) => startChild(["once", file, version, `from-${n}`]));
    for (const c of children) expect(await nextLine(c.lines)).toBe("ready");
    for (const c of children) c.child.stdin!.write("go\n");
    const results = await Promise.all(
      children.map(
        async (c) =>
          JSON.parse(await nextLine(c.lines)) as {
            ok: boolean;
            code?: string;
            version?: string;
            extra?: { current_config_version?: string };
          },
      ),
    );
    const winners = results.filter((r) => r.ok);
    const losers = results.filter((r) => !r.ok);
    expect(winners).toHaveLength(1);
    expect(losers.map((r) => r.code)).toEqual([
      "config_version_conflict",
      "config_version_conflict",
      "config_version_conflict",
    ]);
    const final = readEnvSnapshot(file);
    expect(final.version).toBe(winners[0]?.version);
    for (const l of losers) expect(l.extra?.current_config_version).toBe(final.version);
    expect(final.content).toMatch(/^# shared\nVALUE=from-\d\n$/);
  }, 60_000);

  // The crash test: a writer is killed with SIGKILL at random moments while it rewrites the file in a loop.
  // After every kill the file must parse and be exactly one complete version (never torn), the backup too,
  // and the next writer must get past the dead writer's lock and temp files.
  it("kill -9 during a stream of writes never leaves a torn or unparsable env file", async () => {
    const PAD = 256 * 1024;
    const base = "# DSA settings\nKEEP=yes # must survive\n\nSEQ=0\nPAD=\nEND=0\n# trailer\n";
    fs.writeFileSync(file, base);
    const complete = (text: string): boolean => {
      const values = parseEnv(text);
      if (values.SEQ === "0") return text === base;
      return text === applyEnvUpdates(base, loopUpdates(Number(values.SEQ), PAD));
    };
    let killedMidWrite = 0;
    // One batch of six in the suite; `npm run test:exhaustive` (DSA_EXHAUSTIVE=1) kills 24 writers.
    const KILLS = process.env.DSA_EXHAUSTIVE === "1" ? 24 : 6;
    const BATCH = 6;
    for (let first = 0; first < KILLS; first += BATCH) {
      // Boot a batch of writers together (tsx start-up dominates), then run and kill them one at a time.
      // Each fsync takes 25 ms more (a slow disk), so a random kill often lands while a temporary file
      // exists; on this machine's fast disk a write spends too little of its time there to count on.
      const batch = Array.from({ length: BATCH }, () =>
        startChild(["loop", file, String(PAD)], { DSA_ENV_STORE_SLOW_FSYNC_MS: "25" }),
      );
      for (const { lines } of batch) expect(await nextLine(lines)).toBe("started");
      for (const { child, lines } of batch) {
        child.stdin!.write("go\n");
        expect(await nextLine(lines)).toBe("ready");
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
        const exited = new Promise((resolve) => child.on("exit", resolve));
        child.kill("SIGKILL");
        await exited;
        // A temp file left behind means the kill landed between writing the new bytes and the rename.
        if (fs.readdirSync(dir).some(isTempFile)) killedMidWrite++;
        const text = fs.readFileSync(file, "utf8");
        expect(complete(text)).toBe(true);
        expect(parseEnv(text).KEEP).toBe("yes");
        expect(complete(fs.readFileSync(backupPathFor(file), "utf8"))).toBe(true);
        // The dead writer's lock is aged past the stale limit, so the next writer breaks it at once instead of
        // waiting the limit out (2 s a round; the wait itself is the test above).
        const old = new Date(Date.now() - 60_000);
        if (fs.existsSync(lockPathFor(file))) fs.utimesSync(lockPathFor(file), old, old);
      }
    }
    // The kills did land inside writes (with the slow fsync, most rounds leave a temp file).
    expect(killedMidWrite).toBeGreaterThan(0);
    // And a normal writer still works afterwards, cleaning up what the dead ones left.
    await updateEnvFile({ file, reload: false, lockStaleMs: 2000 }, () => ({ updates: { SEQ: "done" }, result: null }));
    expect(parseEnv(fs.readFileSync(file, "utf8")).SEQ).toBe("done");
    expect(fs.readdirSync(dir).filter((n) => isTempFile(n) || n.endsWith(".lock"))).toEqual([]);
  }, 400_000);
});
