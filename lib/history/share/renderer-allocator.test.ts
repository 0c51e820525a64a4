import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RENDERER_ALLOCATOR_OPTIONS, tuneRendererAllocator } from "./renderer-allocator";

// The renderer threads' resvg keeps freed memory and maps it in large pages. mimalloc reports the
// options it read when MIMALLOC_VERBOSE is set, so the test reads them back from a real renderer thread's start.

const CHILD = path.resolve("lib/history/share/renderer-allocator.child-process.ts");

function runRenderer(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(childEnv)) if (name.startsWith("MIMALLOC_")) delete childEnv[name];
  Object.assign(childEnv, { MIMALLOC_VERBOSE: "1" }, env);
  const child = spawn(process.execPath, ["--import", "tsx", CHILD], {
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const option = (stderr: string, name: string) => stderr.match(new RegExp(`option '${name}': (-?\\d+)`))?.[1];

describe("renderer threads' allocator", () => {
  it("fills in each option the environment lacks and keeps the operator's own", () => {
    const env: Record<string, string | undefined> = { MIMALLOC_PURGE_DELAY: "250" };
    tuneRendererAllocator(env);
    expect(env).toEqual({
      MIMALLOC_PURGE_DELAY: "250",
      MIMALLOC_ALLOW_LARGE_OS_PAGES: RENDERER_ALLOCATOR_OPTIONS.MIMALLOC_ALLOW_LARGE_OS_PAGES,
    });
  });

  it("reaches resvg's mimalloc in a real renderer thread: freed memory is kept, large pages allowed", async () => {
    const run = await runRenderer({});
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^drawn 200x\d+/);
    expect(option(run.stderr, "purge_delay")).toBe("-1");
    expect(option(run.stderr, "allow_large_os_pages")).toBe("1");
  }, 60_000);

  it("an operator's MIMALLOC_* setting reaches the renderer unchanged", async () => {
    const run = await runRenderer({ MIMALLOC_PURGE_DELAY: "250", MIMALLOC_ALLOW_LARGE_OS_PAGES: "0" });
    expect(run.code, run.stderr).toBe(0);
    expect(option(run.stderr, "purge_delay")).toBe("250");
    expect(option(run.stderr, "allow_large_os_pages")).toBe("0");
  }, 60_000);
});
