import { healthStatus } from "@/lib/health/health";
import { getApiV1HealthOp } from "@/lib/health/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/health – liveness, always JSON
export const GET = route(getApiV1HealthOp, () => healthStatus());
