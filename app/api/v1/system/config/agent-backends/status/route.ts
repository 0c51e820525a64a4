import { agentBackendStatus } from "@/lib/analysis/llm/backends";
import { getAgentBackendOp } from "@/lib/analysis/llm/backend-operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/system/config/agent-backends/status – the agent chat's backend
export const GET = route(getAgentBackendOp, () => agentBackendStatus());
