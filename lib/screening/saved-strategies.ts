import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { BUILT_IN_STRATEGIES, findBuiltInStrategy } from "./strategies";
import { ZStrategy, type TStrategy } from "./strategy-schema";

// A user's own strategies: the same schema as the built-in ones (filters on the same figures), stored whole and
// checked again when read, so a run explains a saved strategy exactly as it explains a built-in one.

/** Saved strategies a service keeps: enough for a trader's variants, bounded so the list stays readable. */
export const MAX_SAVED_STRATEGIES = 100;

export interface StrategyEntry {
  strategy: TStrategy;
  builtin: boolean;
}

/** A stored definition checked again; null when it no longer fits the schema. */
function definitionOf(row: { definition: string }): TStrategy | null {
  const parsed = ZStrategy.safeParse(JSON.parse(row.definition));
  return parsed.success ? parsed.data : null;
}

export async function savedStrategies(): Promise<TStrategy[]> {
  const rows = await db().screeningStrategy.findMany({ orderBy: { createdAt: "asc" } });
  return rows.flatMap((row) => definitionOf(row) ?? []);
}

/** Built-in first, then the saved ones in the order they were saved. */
export async function allStrategies(): Promise<StrategyEntry[]> {
  return [
    ...BUILT_IN_STRATEGIES.map((strategy) => ({ strategy, builtin: true })),
    ...(await savedStrategies()).map((strategy) => ({ strategy, builtin: false })),
  ];
}

export async function findStrategy(id: string): Promise<TStrategy | null> {
  const builtIn = findBuiltInStrategy(id);
  if (builtIn) return builtIn;
  const row = await db().screeningStrategy.findUnique({ where: { id } });
  return row ? definitionOf(row) : null;
}

function builtInRefused(id: string): ApiError {
  return ApiError.of("not_changeable", `${id} is a built-in strategy: save a copy under another id`);
}

export async function saveStrategy(strategy: TStrategy): Promise<TStrategy> {
  if (findBuiltInStrategy(strategy.id))
    throw ApiError.of("conflict", `${strategy.id} is the id of a built-in strategy`);
  if ((await db().screeningStrategy.count()) >= MAX_SAVED_STRATEGIES)
    throw ApiError.of("validation_error", `At most ${MAX_SAVED_STRATEGIES} strategies can be saved; delete one first`);
  const at = now();
  try {
    await db().screeningStrategy.create({
      data: { id: strategy.id, definition: JSON.stringify(strategy), createdAt: at, updatedAt: at },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw ApiError.of("conflict", `A saved strategy already has id ${strategy.id}`);
    throw error;
  }
  return strategy;
}

export async function replaceStrategy(id: string, strategy: TStrategy): Promise<TStrategy> {
  if (findBuiltInStrategy(id)) throw builtInRefused(id);
  if (strategy.id !== id) throw ApiError.of("validation_error", "The body's id must be the id in the path");
  const updated = await db().screeningStrategy.updateMany({
    where: { id },
    data: { definition: JSON.stringify(strategy), updatedAt: now() },
  });
  if (updated.count === 0) throw notFound(`No saved strategy has id ${id}`);
  return strategy;
}

export async function deleteStrategy(id: string): Promise<{ deleted: number }> {
  if (findBuiltInStrategy(id)) throw builtInRefused(id);
  const deleted = await db().screeningStrategy.deleteMany({ where: { id } });
  if (deleted.count === 0) throw notFound(`No saved strategy has id ${id}`);
  return { deleted: deleted.count };
}
