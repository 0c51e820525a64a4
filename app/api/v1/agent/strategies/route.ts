import { listStrategiesOp } from "@/lib/agent/operations";
import { listAgentStrategies } from "@/lib/agent/service";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/agent/strategies – the chat strategies under the reference's legacy names
export const GET = route(listStrategiesOp, () => listAgentStrategies());
