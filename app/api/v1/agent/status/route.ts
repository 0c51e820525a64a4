import { agentStatus } from "@/lib/agent/models";
import { agentStatusOp } from "@/lib/agent/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/agent/status – whether free questions can be answered
export const GET = route(agentStatusOp, () => agentStatus());
