// Run by renderer-allocator.test.ts in a process of its own (mimalloc reads its options once per process): starts a
// renderer thread the way the service does and has it draw one line, so the thread loads resvg's native module.
import { SharePool } from "./render-pool";

const pool = new SharePool({ size: 1 });
try {
  const png = Buffer.from(
    await pool.render(
      { type: "div", key: null, props: { style: { display: "flex", fontSize: 24 }, children: "观望 Ag" } },
      200,
    ),
  );
  process.stdout.write(`drawn ${png.readUInt32BE(16)}x${png.readUInt32BE(20)}\n`);
} finally {
  await pool.close();
}
