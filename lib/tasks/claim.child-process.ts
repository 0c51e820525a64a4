// A second worker process for store.test.ts (run with `node --import tsx`): claims pending tasks from the
// same SQLite file until none is left and prints the ids it got as one JSON line.
//   <databaseFile> <owner>
import { setEnvironmentForTests } from "@/lib/config/settings";

async function main(): Promise<void> {
  const [file, owner] = process.argv.slice(2);
  setEnvironmentForTests({ DATABASE_URL: `file:${file}`, ENV_FILE: `${file}.missing.env`, LOG_LEVEL: "silent" });
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
