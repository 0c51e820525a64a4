import { route } from "@/lib/http/route";
import { handleMcp } from "@/lib/mcp/handle";
import { mcpOp } from "@/lib/mcp/operations";

export const dynamic = "force-dynamic";

// POST /mcp – the Model Context Protocol over Streamable HTTP (stateless: other methods answer 405)
export const POST = route(mcpOp, ({ req }) => handleMcp(req));
