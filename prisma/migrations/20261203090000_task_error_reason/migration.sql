-- AlterTable
ALTER TABLE "analysis_task" ADD COLUMN "error_code" TEXT;
ALTER TABLE "analysis_task" ADD COLUMN "error_params" TEXT;
