import { exportSystemConfigOp } from "@/lib/config/operations";
import { exportSystemConfig } from "@/lib/config/system-config";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/system/config/export – the saved env file text for backup (403 while admin auth is off)
export const GET = route(exportSystemConfigOp, () => exportSystemConfig());
