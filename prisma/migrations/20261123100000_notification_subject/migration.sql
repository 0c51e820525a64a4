-- AlterTable
ALTER TABLE "notification_delivery" ADD COLUMN "subject" TEXT;

-- CreateIndex
CREATE INDEX "notification_delivery_subject_channel_created_at_idx" ON "notification_delivery"("subject", "channel", "created_at");
