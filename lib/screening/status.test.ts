import { afterEach, describe, expect, it } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { screeningStatus } from "./status";

afterEach(() => setEnvironmentForTests(process.env));

const statusWith = (env: Record<string, string>) => {
  setEnvironmentForTests({ ENV_FILE: "/nonexistent/dsa-screening.env", ...env });
  return screeningStatus();
};

describe("the screener's state", () => {
  it("ALPHASIFT_ENABLED is read as SCREENING_ENABLED when that is unset; SCREENING_ENABLED wins when set", () => {
    expect(statusWith({}).configured).toBe(false);
    expect(statusWith({ ALPHASIFT_ENABLED: "true" }).configured).toBe(true);
    expect(statusWith({ ALPHASIFT_ENABLED: "true", SCREENING_ENABLED: "false" }).configured).toBe(false);
    expect(statusWith({ SCREENING_ENABLED: "true" }).configured).toBe(true);
  });

  it("without a screener in this build it is never enabled or available, and says so", () => {
    const status = statusWith({ SCREENING_ENABLED: "true" });
    expect(status).toMatchObject({ enabled: false, available: false, strategy_count: 0 });
    expect(status.diagnostics.reason).toMatch(/no stock screener/);
  });
});
