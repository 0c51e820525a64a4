// A stand-in renderer thread for render-pool.test.ts: answers `width` bytes, except that width 13 makes the thread
// exit mid-card and width 14 makes it never answer. An element { countServed: true } is answered with as many bytes
// as cards this thread has taken, itself included.
let served = 0;

export default function fakeRender({ element, width }) {
  served += 1;
  if (width === 13) process.exit(3);
  if (width === 14) return new Promise(() => {});
  return new Uint8Array(element?.countServed ? served : width);
}
