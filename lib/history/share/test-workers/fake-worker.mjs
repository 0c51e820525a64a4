// A stand-in renderer thread for render-pool.test.ts: answers a strip of `width` × 1 transparent pixels, except
// that width 13 makes the thread exit mid-job and width 14 makes it never answer.
import { parentPort } from "node:worker_threads";
import { deflateSegment } from "../png-segment.mjs";

parentPort.on("message", ({ id, width }) => {
  if (width === 13) process.exit(3);
  if (width === 14) return;
  const strip = deflateSegment(new Uint8Array(width * 4 + 1));
  parentPort.postMessage({ id, width, height: 1, ...strip }, [strip.deflated.buffer]);
});
