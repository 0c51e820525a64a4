// A second worker process for store.test.ts (run with `node --import tsx`): claims pending tasks from the
// same database until none is left and prints the ids it got as one JSON line.
//   <databaseUrl> <owner> <envFile>
import { setEnvironmentForTests } from "@/lib/config/settings";

async function main(): Promise<void> {
  const [url, owner, envFile] = process.argv.slice(2);
  setEnvironmentForTests({ DATABASE_URL: url!, ENV_FILE: envFile!, LOG_LEVEL: "silent" });
  const { claimNextTask } = await import("./store");
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
