import { healthStatus } from "@/lib/health/health";
import { getHealthOp } from "@/lib/health/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /health – liveness, always JSON
export const GET = route(getHealthOp, () => healthStatus());
