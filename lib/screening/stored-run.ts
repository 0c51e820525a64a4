import type { ScreeningRun } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { ZScreenResponse, type TScreenResponse } from "./schemas";

// A stored run reads back as it was answered: the whole answer is kept as JSON (screening_run.result).

export function runResult(row: ScreeningRun): TScreenResponse {
  return ZScreenResponse.parse(JSON.parse(row.result));
}

/** The stored answer of run `runId`, or null when none is stored. */
export async function findStoredRun(runId: string): Promise<TScreenResponse | null> {
  const row = await db().screeningRun.findUnique({ where: { runId } });
  return row ? runResult(row) : null;
}
