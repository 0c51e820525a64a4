import { describe, expect, it } from "vitest";
import { onShutdown, runShutdownHooks } from "./shutdown";

// What a stopping replica finishes before it exits (scripts/http-server.ts awaits it on SIGTERM).

describe("shutdown hooks", () => {
  it("run together and are awaited; a failing hook does not stop the others; a name registers once", async () => {
    const done: string[] = [];
    onShutdown("a", async () => {
      await new Promise((r) => setTimeout(r, 30));
      done.push("a");
    });
    onShutdown("b", async () => {
      throw new Error("b failed");
    });
    onShutdown("c", async () => void done.push("c-old"));
    onShutdown("c", async () => void done.push("c"));
    await runShutdownHooks(5000);
    expect(done.sort()).toEqual(["a", "c"]);
    // Run once: a second signal finds nothing left to do.
    await runShutdownHooks(5000);
    expect(done).toHaveLength(2);
  });

  it("a hook that never ends is waited for at most the timeout", async () => {
    onShutdown("stuck", () => new Promise<void>(() => undefined));
    const started = Date.now();
    await runShutdownHooks(100);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
