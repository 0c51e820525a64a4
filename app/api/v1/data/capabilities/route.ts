import { route } from "@/lib/http/route";
import { dataCapabilities } from "@/lib/data-sources/capabilities";
import { getDataCapabilitiesOp } from "@/lib/data-sources/operations";

export const dynamic = "force-dynamic";

// GET /api/v1/data/capabilities – each provider's capability table
export const GET = route(getDataCapabilitiesOp, () => dataCapabilities());
