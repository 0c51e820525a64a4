import { route } from "@/lib/http/route";
import { deleteCorporateAction } from "@/lib/portfolio/events";
import { deleteCorporateActionOp } from "@/lib/portfolio/operations";

export const dynamic = "force-dynamic";

// DELETE /api/v1/portfolio/corporate-actions/{action_id} – delete a corporate action
export const DELETE = route(deleteCorporateActionOp, ({ params }) => deleteCorporateAction(params.action_id));
