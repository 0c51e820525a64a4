-- AlterTable
ALTER TABLE "analysis_task" ADD COLUMN "error_code" TEXT,
ADD COLUMN "error_params" TEXT;
