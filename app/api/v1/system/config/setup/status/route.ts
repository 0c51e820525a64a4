import { getSetupStatusOp } from "@/lib/config/operations";
import { setupStatus } from "@/lib/config/setup-status";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/system/config/setup/status – what a new install still needs
export const GET = route(getSetupStatusOp, () => setupStatus());
