-- CreateTable
CREATE TABLE "bot_message" (
    "id" SERIAL NOT NULL,
    "platform" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "chat_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "reply_to" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "command" TEXT,
    "task_id" TEXT,
    "answer" TEXT,
    "record_id" INTEGER,
    "error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "answered_at" TIMESTAMP(3),

    CONSTRAINT "bot_message_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "bot_message_platform_chat_id_created_at_idx" ON "bot_message"("platform", "chat_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "bot_message_platform_message_id_key" ON "bot_message"("platform", "message_id");
