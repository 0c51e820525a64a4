import { route } from "@/lib/http/route";
import { listBrokers } from "@/lib/portfolio/csv-import";
import { listImportBrokersOp } from "@/lib/portfolio/operations";

export const dynamic = "force-dynamic";

// GET /api/v1/portfolio/imports/csv/brokers – the broker export formats the import reads
export const GET = route(listImportBrokersOp, () => listBrokers());
