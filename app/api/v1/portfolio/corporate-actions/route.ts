import { route } from "@/lib/http/route";
import { createCorporateAction, listCorporateActions } from "@/lib/portfolio/events";
import { createCorporateActionOp, listCorporateActionsOp } from "@/lib/portfolio/operations";

export const dynamic = "force-dynamic";

// GET /api/v1/portfolio/corporate-actions – dividends and splits, newest first
export const GET = route(listCorporateActionsOp, ({ query }) => listCorporateActions(query));

// POST /api/v1/portfolio/corporate-actions – record a cash dividend or a split
export const POST = route(createCorporateActionOp, ({ body }) => createCorporateAction(body));
