import { getSystemConfigSchemaOp } from "@/lib/config/operations";
import { getSystemConfigSchema } from "@/lib/config/system-config";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/system/config/schema – categories, field types, validation rules and UI hints
export const GET = route(getSystemConfigSchemaOp, () => getSystemConfigSchema());
