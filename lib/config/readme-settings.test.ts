import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ZSettings } from "@/lib/settings/settings-schema";

describe("README configuration table", () => {
  it("documents every setting the service reads", () => {
    const readme = fs.readFileSync("README.md", "utf8");
    const missing = Object.keys(ZSettings.shape).filter((key) => !readme.includes(`| \`${key}\` |`));
    expect(missing).toEqual([]);
  });
});
