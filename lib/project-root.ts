import fs from "node:fs";
import path from "node:path";

/**
 * The project folder: the nearest folder at or above `from` (a module's import.meta.dirname) whose package.json
 * names a package. The same answer from the source tree and from the server bundle in the build folder
 * (scripts/build-server.mjs), which sits at another depth beside Next's own nameless package.json.
 */
export function projectRoot(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (namesPackage(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no project package.json at or above ${from}`);
  }
}

function namesPackage(file: string): boolean {
  try {
    return typeof (JSON.parse(fs.readFileSync(file, "utf8")) as { name?: unknown }).name === "string";
  } catch {
    return false;
  }
}
