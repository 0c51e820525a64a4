import { getSystemConfigOp, updateSystemConfigOp } from "@/lib/config/operations";
import { getSystemConfig, updateSystemConfig } from "@/lib/config/system-config";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/system/config – all settings, sensitive values masked, with the config version
export const GET = route(getSystemConfigOp, ({ query }) => getSystemConfig({ includeSchema: query.include_schema }));

// PUT /api/v1/system/config – update settings by key (400 on any invalid value, 409 on a stale version)
export const PUT = route(updateSystemConfigOp, ({ body }) => updateSystemConfig(body));
