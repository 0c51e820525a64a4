// Resvg-js allocates through the mimalloc linked into its native module, whose defaults hand freed
// memory back to the system within milliseconds and map it in 4 kB pages. Every strip's pixmap (4-15 MB) was then
// fresh memory, mapped again page by page on first touch; on a virtual machine a page fault is dear (measured here,
// a Firecracker VM: ~12 µs per 4 kB page, 45 ms to first touch 15 MB), and an empty 1080 × 3596 SVG took 50-95 ms
// to "render". With freed memory kept (purge delay -1) and 2 MB pages (transparent huge pages, where the system
// allows them by madvise) the same render takes ~4.5 ms and a real card strip's raster ~8 ms instead of ~30 ms.
// The cost: a renderer thread keeps the memory of the largest strip it drew (tens of MB), which a server that draws
// share cards wants back for the next card anyway.
//
// mimalloc reads its options from the process environment once, when the native module is loaded; renderer threads
// load it, so these are set in the main thread (whose process.env writes the real environment) before the first
// thread starts. An operator's own MIMALLOC_* settings win.
export const RENDERER_ALLOCATOR_OPTIONS: Readonly<Record<string, string>> = {
  MIMALLOC_PURGE_DELAY: "-1",
  MIMALLOC_ALLOW_LARGE_OS_PAGES: "1",
};

export function tuneRendererAllocator(env: Record<string, string | undefined> = process.env): void {
  for (const [name, value] of Object.entries(RENDERER_ALLOCATOR_OPTIONS)) {
    if (env[name] === undefined) env[name] = value;
  }
}
