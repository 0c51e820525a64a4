import { route } from "@/lib/http/route";
import { hotspots } from "@/lib/screening/hotspots";
import { hotspotsOp } from "@/lib/screening/operations";

export const dynamic = "force-dynamic";

// GET /api/v1/screening/hotspots – hot sectors, with why each source gave none
export const GET = route(hotspotsOp, ({ query }) => hotspots(query));
