import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { projectRoot } from "./project-root";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("projectRoot", () => {
  it("finds this project from a source folder", () => {
    expect(projectRoot(import.meta.dirname)).toBe(path.resolve(import.meta.dirname, ".."));
  });

  it("passes a nameless package.json (Next's in the build folder) on its way up to the project's", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-root-"));
    made.push(root);
    fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "dsa" }));
    const bundleDir = path.join(root, ".next", "dsa-server");
    fs.mkdirSync(bundleDir, { recursive: true });
    fs.writeFileSync(path.join(root, ".next", "package.json"), JSON.stringify({ type: "commonjs" }));
    expect(projectRoot(bundleDir)).toBe(root);
  });

  it("says so when no folder above holds a project package.json", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-noroot-"));
    made.push(dir);
    expect(() => projectRoot(dir)).toThrow(/no project package.json/);
  });
});
