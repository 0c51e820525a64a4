import { deleteCsvDataFile } from "@/lib/data/csv-files";
import { deleteCsvDataFileOp } from "@/lib/data/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// DELETE /api/v1/data/csv/{code} – remove a code's CSV data file
export const DELETE = route(deleteCsvDataFileOp, ({ params }) => deleteCsvDataFile(params.code));
