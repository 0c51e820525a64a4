import { healthStatus } from "@/lib/health/health";
import { getApiHealthOp } from "@/lib/health/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/health – liveness, always JSON
export const GET = route(getApiHealthOp, () => healthStatus());
