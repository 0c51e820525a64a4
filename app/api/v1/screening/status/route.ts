import { route } from "@/lib/http/route";
import { getScreeningStatusOp, screeningStatus } from "@/lib/screening/status";

export const dynamic = "force-dynamic";

// GET /api/v1/screening/status – the screener's state (the reference's sidebar asks on every page)
export const GET = route(getScreeningStatusOp, () => screeningStatus());
