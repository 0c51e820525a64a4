import { afterEach, describe, expect, it } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { screeningStatus } from "./status";
import { BUILT_IN_STRATEGIES } from "./strategies";

afterEach(() => setEnvironmentForTests(process.env));

const statusWith = (env: Record<string, string>) => {
  setEnvironmentForTests({ ENV_FILE: "/nonexistent/dsa-screening.env", ...env });
  return screeningStatus();
};

describe("the screener's state", () => {
  it("on by default; ALPHASIFT_ENABLED is read as SCREENING_ENABLED when that is unset; SCREENING_ENABLED wins", () => {
    expect(statusWith({}).configured).toBe(true);
    expect(statusWith({ ALPHASIFT_ENABLED: "false" }).configured).toBe(false);
    expect(statusWith({ ALPHASIFT_ENABLED: "false", SCREENING_ENABLED: "true" }).configured).toBe(true);
    expect(statusWith({ SCREENING_ENABLED: "false" }).configured).toBe(false);
  });

  it("available with the built-in strategies; enabled only when switched on, and says how to switch it on", () => {
    expect(statusWith({})).toMatchObject({
      enabled: true,
      available: true,
      strategy_count: BUILT_IN_STRATEGIES.length,
    });
    const off = statusWith({ SCREENING_ENABLED: "false" });
    expect(off).toMatchObject({ enabled: false, available: true });
    expect(off.diagnostics.reason).toMatch(/SCREENING_ENABLED=true/);
  });
});
