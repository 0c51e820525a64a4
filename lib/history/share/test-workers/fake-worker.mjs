// A stand-in renderer thread for render-pool.test.ts: answers a strip of `width` × 1 transparent pixels, except
// that width 13 makes the thread exit mid-job and width 14 makes it never answer. An element { countServed: true }
// is answered with the height of how many jobs the thread has taken, itself included (the order it was handed them).
import { parentPort } from "node:worker_threads";
import { deflateSegment } from "../png-segment.mjs";

let served = 0;

parentPort.on("message", ({ id, element, width }) => {
  served += 1;
  if (width === 13) process.exit(3);
  if (width === 14) return;
  const strip = deflateSegment(new Uint8Array(width * 4 + 1));
  parentPort.postMessage({ id, width, height: element?.countServed ? served : 1, ...strip }, [strip.deflated.buffer]);
});
