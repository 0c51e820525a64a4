import { route } from "@/lib/http/route";
import { runPaperAccountOp } from "@/lib/paper/operations";
import { runPaperAccount } from "@/lib/paper/run";

export const dynamic = "force-dynamic";

// POST /api/v1/paper/accounts/{id}/run – walk the sessions closed since its last one
export const POST = route(runPaperAccountOp, ({ params }) => runPaperAccount(params.id));
