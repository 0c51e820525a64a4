// resvg allocates through the mimalloc linked into its native module, whose defaults hand freed memory back to the
// system within milliseconds and map it in 4 kB pages: every card's pixmap (a full card is 15-20 MB) was then fresh
// memory, mapped again page by page on first touch, which on a virtual machine is dear. With freed memory kept (purge
// delay -1) and 2 MB pages (transparent huge pages, where the system allows them by madvise) a raster costs a
// fraction of that. The cost: a renderer thread keeps the memory of the largest card it drew, which a server that
// draws share cards wants back for the next card anyway.
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
