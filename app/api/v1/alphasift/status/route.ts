import { route } from "@/lib/http/route";
import { getAlphasiftStatusOp, screeningStatus } from "@/lib/screening/status";

export const dynamic = "force-dynamic";

// GET /api/v1/alphasift/status – the screener's state under the reference's older path
export const GET = route(getAlphasiftStatusOp, () => screeningStatus());
