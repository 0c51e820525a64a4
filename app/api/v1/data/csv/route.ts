import { listCsvDataFiles, saveCsvDataFile } from "@/lib/data/csv-files";
import { listCsvDataFilesOp, uploadCsvDataFileOp } from "@/lib/data/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/data/csv – the CSV data files with their bar counts and date ranges
export const GET = route(listCsvDataFilesOp, () => listCsvDataFiles());

// POST /api/v1/data/csv – upload (multipart: code, file) a checked CSV data file for a code
export const POST = route(uploadCsvDataFileOp, ({ body }) => saveCsvDataFile(body));
