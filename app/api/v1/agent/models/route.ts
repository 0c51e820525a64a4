import { agentModels } from "@/lib/agent/models";
import { agentModelsOp } from "@/lib/agent/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/agent/models – the chat's model deployments
export const GET = route(agentModelsOp, () => agentModels());
