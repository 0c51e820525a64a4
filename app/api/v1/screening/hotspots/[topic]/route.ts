import { route } from "@/lib/http/route";
import { hotspot } from "@/lib/screening/hotspots";
import { hotspotOp } from "@/lib/screening/operations";

export const dynamic = "force-dynamic";

// GET /api/v1/screening/hotspots/{topic} – one hot sector with its stocks
export const GET = route(hotspotOp, ({ params }) => hotspot(params.topic));
