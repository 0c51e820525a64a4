// A second worker process for store.test.ts (run with `node --import tsx`): opens the database, prints "ready",
// waits for a line on stdin (so both workers start claiming at the same instant however slowly each one
// loaded), then claims pending tasks until none is left and prints the ids it got as one JSON line.
//   <databaseUrl> <owner> <envFile>
import { setEnvironmentForTests } from "@/lib/settings/settings";

async function main(): Promise<void> {
  const [url, owner, envFile] = process.argv.slice(2);
  setEnvironmentForTests({ DATABASE_URL: url!, ENV_FILE: envFile!, LOG_LEVEL: "silent" });
  const { claimNextTask } = await import("./store");
  const { db } = await import("@/lib/db/client");
  await db().analysisTask.count();
  process.stdout.write("ready\n");
  await new Promise((resolve) => process.stdin.once("data", resolve));
  const claimed: string[] = [];
  for (;;) {
    const row = await claimNextTask(owner!);
    if (!row) break;
    claimed.push(row.id);
  }
  process.stdout.write(`${JSON.stringify(claimed)}\n`);
  process.exit(0);
}

void main();
