-- CreateTable
CREATE TABLE "agent_session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "title" TEXT NOT NULL,
    "skills" TEXT,
    "context" TEXT,
    "created_at" DATETIME NOT NULL,
    "last_active" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "agent_message" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "session_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'complete',
    "request_id" TEXT,
    "tool_calls" TEXT,
    "checks" TEXT,
    "skills" TEXT,
    "model" TEXT,
    "created_at" DATETIME NOT NULL,
    CONSTRAINT "agent_message_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "agent_session" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "agent_session_last_active_idx" ON "agent_session"("last_active");

-- CreateIndex
CREATE INDEX "agent_message_session_id_id_idx" ON "agent_message"("session_id", "id");

