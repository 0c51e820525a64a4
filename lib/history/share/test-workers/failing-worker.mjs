// A stand-in renderer thread for png.test.ts: every strip fails as a crashed layout engine would report it.
import { parentPort } from "node:worker_threads";

parentPort.on("message", ({ id }) => parentPort.postMessage({ id, error: "layout engine crashed" }));
