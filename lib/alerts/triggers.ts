import type { Prisma } from "@/generated/prisma/client";
import { db } from "@/lib/db/client";
import { isRejection, resolveToken } from "@/lib/market/symbols";
import type { TAlertTriggerListQuery, TAlertTriggerListResponse } from "./schemas";
import { toAlertTrigger } from "./serialize";

// GET /api/v1/alerts/triggers – newest first; target accepts any code form of a stock (or a rule-level target).
export async function listAlertTriggers(query: TAlertTriggerListQuery): Promise<TAlertTriggerListResponse> {
  const where: Prisma.AlertTriggerWhereInput = {};
  if (query.rule_id !== undefined) where.ruleId = query.rule_id;
  if (query.status !== undefined) where.status = query.status;
  if (query.target !== undefined) {
    const resolved = resolveToken(query.target);
    where.target = isRejection(resolved)
      ? query.target
      : { in: [...new Set([resolved.displayCode, query.target, query.target.toLowerCase()])] };
  }
  const [total, rows] = await Promise.all([
    db().alertTrigger.count({ where }),
    db().alertTrigger.findMany({
      where,
      orderBy: [{ triggeredAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.page_size,
      take: query.page_size,
    }),
  ]);
  return { items: rows.map(toAlertTrigger), total, page: query.page, page_size: query.page_size };
}
