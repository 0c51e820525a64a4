-- AlterTable
ALTER TABLE "decision_signal" ADD COLUMN "decision_profile" TEXT;
