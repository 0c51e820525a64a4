import { agentBackendStatus } from "@/lib/analysis/llm/backends";
import { previewAgentBackendOp } from "@/lib/analysis/llm/backend-operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/system/config/agent-backends/status/preview – the agent backend of an unsaved draft
export const POST = route(previewAgentBackendOp, ({ body }) => agentBackendStatus(body));
