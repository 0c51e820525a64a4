// `npm start`: the launcher bundled by `npm run build` (scripts/build-server.mjs), run on plain Node.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const launcher = path.resolve(
  import.meta.dirname,
  "..",
  process.env.NEXT_DIST_DIR || ".next",
  "dsa-server",
  "start.mjs",
);
if (!fs.existsSync(launcher)) {
  console.error(`No server build at ${launcher}: run \`npm run build\` first.`);
  process.exit(1);
}
await import(pathToFileURL(launcher).href);
