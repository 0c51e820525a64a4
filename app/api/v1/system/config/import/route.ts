import { importSystemConfigOp } from "@/lib/config/operations";
import { importSystemConfig } from "@/lib/config/system-config";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/system/config/import – merge an env file backup key by key (403 while admin auth is off)
export const POST = route(importSystemConfigOp, ({ body }) => importSystemConfig(body));
