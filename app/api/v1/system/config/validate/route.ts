import { validateSystemConfigOp } from "@/lib/config/operations";
import { validateSystemConfig } from "@/lib/config/system-config";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/system/config/validate – check settings without writing anything
export const POST = route(validateSystemConfigOp, ({ body }) => validateSystemConfig(body));
