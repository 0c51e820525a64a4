import { route } from "@/lib/http/route";
import { getScreeningStatusOp, screeningStatus } from "@/lib/screening/status";

export const dynamic = "force-dynamic";

// GET /api/v1/alphasift/status – screening is not built in: the clean disabled state
export const GET = route(getScreeningStatusOp, () => screeningStatus());
