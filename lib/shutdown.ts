// What a stopping server process finishes before it exits: the launcher (scripts/http-server.ts) stops accepting
// connections on SIGTERM, awaits every hook registered here (bounded), then closes Next and exits. Before, each part
// listened to SIGTERM on its own and the exit could come first: a leader lock then stayed taken until its TTL ran
// out, and running tasks waited for their lease instead of going back to the queue at once. Kept on globalThis:
// the launcher and Next's server bundles are separate module instances in one process.

type Hook = () => Promise<void>;

const holder = globalThis as typeof globalThis & { __dsaShutdownHooks?: Map<string, Hook> };

function hooks(): Map<string, Hook> {
  return (holder.__dsaShutdownHooks ??= new Map());
}

/** Registers (or replaces, by name) work to finish when the process is asked to stop. */
export function onShutdown(name: string, hook: Hook): void {
  hooks().set(name, hook);
}

/** Runs every hook at once and waits for all of them, at most `timeoutMs`; a failing hook does not stop the others. */
export async function runShutdownHooks(timeoutMs: number): Promise<void> {
  const pending = [...hooks().values()].map((hook) => hook().catch(() => undefined));
  hooks().clear();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
    timer.unref();
  });
  await Promise.race([Promise.all(pending), deadline]);
  clearTimeout(timer);
}
