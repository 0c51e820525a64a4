import { listSkillsOp } from "@/lib/agent/operations";
import { listAgentSkills } from "@/lib/agent/service";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/agent/skills – the chat strategies
export const GET = route(listSkillsOp, () => listAgentSkills());
