-- CreateTable
CREATE TABLE "app_state" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "app_state_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "admin_session" (
    "id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "revoked_at" TIMESTAMP(3),
    "last_seen_at" TIMESTAMP(3),

    CONSTRAINT "admin_session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_token" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3),
    "last_used_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "api_token_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_bar" (
    "symbol_key" TEXT NOT NULL,
    "trade_date" TEXT NOT NULL,
    "open" DOUBLE PRECISION NOT NULL,
    "high" DOUBLE PRECISION NOT NULL,
    "low" DOUBLE PRECISION NOT NULL,
    "close" DOUBLE PRECISION NOT NULL,
    "volume" DOUBLE PRECISION NOT NULL,
    "amount" DOUBLE PRECISION,
    "turnover_rate" DOUBLE PRECISION,
    "source" TEXT NOT NULL,
    "fetched_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "daily_bar_pkey" PRIMARY KEY ("symbol_key","trade_date")
);

-- CreateTable
CREATE TABLE "analysis_history" (
    "id" SERIAL NOT NULL,
    "query_id" TEXT NOT NULL,
    "trace_id" TEXT,
    "stock_code" TEXT NOT NULL,
    "display_code" TEXT NOT NULL,
    "stock_name" TEXT,
    "market" TEXT NOT NULL,
    "asset_type" TEXT,
    "target_key" TEXT NOT NULL,
    "report_type" TEXT NOT NULL,
    "report_language" TEXT NOT NULL,
    "region" TEXT,
    "analysis_phase" TEXT,
    "sentiment_score" INTEGER,
    "trend_prediction" TEXT,
    "operation_advice" TEXT,
    "action" TEXT,
    "analysis_summary" TEXT,
    "current_price" DOUBLE PRECISION,
    "change_pct" DOUBLE PRECISION,
    "volume_ratio" DOUBLE PRECISION,
    "turnover_rate" DOUBLE PRECISION,
    "model_used" TEXT,
    "engine_version" TEXT,
    "data_source" TEXT,
    "market_phase_summary" TEXT,
    "report_json" TEXT NOT NULL,
    "raw_result" TEXT,
    "context_snapshot" TEXT,
    "diagnostics" TEXT,
    "flow" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "analysis_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "analysis_news" (
    "id" SERIAL NOT NULL,
    "history_id" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "snippet" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "source" TEXT,
    "published_at" TEXT,

    CONSTRAINT "analysis_news_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "llm_usage" (
    "id" SERIAL NOT NULL,
    "called_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "call_type" TEXT NOT NULL,
    "channel" TEXT,
    "model" TEXT NOT NULL,
    "stock_code" TEXT,
    "query_id" TEXT,
    "prompt_tokens" INTEGER NOT NULL,
    "completion_tokens" INTEGER NOT NULL,
    "total_tokens" INTEGER NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "success" BOOLEAN NOT NULL,
    "error" TEXT,

    CONSTRAINT "llm_usage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stock_listing" (
    "market" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "name_zh" TEXT NOT NULL,
    "name_en" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'stock',
    "exchange" TEXT,
    "source" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "stock_listing_pkey" PRIMARY KEY ("market","code")
);

-- CreateTable
CREATE TABLE "analysis_task" (
    "id" TEXT NOT NULL,
    "trace_id" TEXT,
    "kind" TEXT NOT NULL,
    "stock_code" TEXT NOT NULL,
    "stock_name" TEXT,
    "market" TEXT,
    "asset_type" TEXT,
    "active_key" TEXT,
    "request" TEXT NOT NULL,
    "original_query" TEXT,
    "selection_source" TEXT,
    "report_type" TEXT,
    "analysis_phase" TEXT,
    "skills" TEXT,
    "region" TEXT,
    "status" TEXT NOT NULL,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "message" TEXT,
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lease_owner" TEXT,
    "lease_until" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL,
    "started_at" TIMESTAMP(3),
    "completed_at" TIMESTAMP(3),

    CONSTRAINT "analysis_task_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "decision_signal" (
    "id" SERIAL NOT NULL,
    "stock_code" TEXT NOT NULL,
    "stock_name" TEXT,
    "market" TEXT NOT NULL,
    "asset_type" TEXT NOT NULL,
    "target_key" TEXT NOT NULL,
    "source_type" TEXT NOT NULL,
    "source_agent" TEXT,
    "source_report_id" INTEGER,
    "trace_id" TEXT,
    "market_phase" TEXT,
    "trigger_source" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "action_label" TEXT,
    "confidence" DOUBLE PRECISION,
    "score" INTEGER,
    "horizon" TEXT NOT NULL,
    "entry_low" DOUBLE PRECISION,
    "entry_high" DOUBLE PRECISION,
    "stop_loss" DOUBLE PRECISION,
    "target_price" DOUBLE PRECISION,
    "invalidation" TEXT,
    "watch_conditions" TEXT,
    "reason" TEXT,
    "risk_summary" TEXT,
    "catalyst_summary" TEXT,
    "evidence" TEXT,
    "data_quality_summary" TEXT,
    "plan_quality" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3),
    "metadata" TEXT,
    "report_language" TEXT,
    "decision_engine_version" TEXT,
    "dedup_key" TEXT,
    "relaxed_key" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "decision_signal_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "decision_signal_outcome" (
    "id" SERIAL NOT NULL,
    "signal_id" INTEGER NOT NULL,
    "horizon" TEXT NOT NULL,
    "engine_version" TEXT NOT NULL,
    "eval_status" TEXT NOT NULL,
    "retryable" BOOLEAN NOT NULL DEFAULT false,
    "outcome" TEXT,
    "direction_expected" TEXT,
    "direction_correct" BOOLEAN,
    "unable_reason" TEXT,
    "anchor_date" TEXT,
    "eval_window_days" INTEGER,
    "start_price" DOUBLE PRECISION,
    "end_date" TEXT,
    "end_close" DOUBLE PRECISION,
    "max_high" DOUBLE PRECISION,
    "min_low" DOUBLE PRECISION,
    "stock_return_pct" DOUBLE PRECISION,
    "max_favorable_excursion_pct" DOUBLE PRECISION,
    "max_adverse_excursion_pct" DOUBLE PRECISION,
    "entry_reachable" BOOLEAN,
    "first_hit" TEXT,
    "first_hit_date" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "decision_signal_outcome_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "decision_signal_feedback" (
    "id" SERIAL NOT NULL,
    "signal_id" INTEGER NOT NULL,
    "feedback_value" TEXT NOT NULL,
    "reason_code" TEXT,
    "note" TEXT,
    "source" TEXT NOT NULL DEFAULT 'api',
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "decision_signal_feedback_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portfolio_account" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "market" TEXT,
    "currency" TEXT NOT NULL DEFAULT 'CNY',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "owner_id" TEXT,
    "broker" TEXT,
    "updated_at" TIMESTAMP(3),

    CONSTRAINT "portfolio_account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portfolio_position" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "market" TEXT NOT NULL,
    "stock_code" TEXT NOT NULL,
    "target_key" TEXT NOT NULL,
    "quantity" DOUBLE PRECISION NOT NULL,
    "avg_cost" DOUBLE PRECISION,
    "fifo_cost" DOUBLE PRECISION,
    "realized_avg" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "realized_fifo" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "portfolio_position_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_rule" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "alert_type" TEXT NOT NULL,
    "target_scope" TEXT NOT NULL DEFAULT 'single_symbol',
    "target" TEXT NOT NULL,
    "target_key" TEXT NOT NULL,
    "parameters" TEXT NOT NULL,
    "severity" TEXT NOT NULL DEFAULT 'warning',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "source" TEXT NOT NULL DEFAULT 'api',
    "cooldown_seconds" INTEGER NOT NULL DEFAULT 3600,
    "notification_policy" TEXT,
    "signal_cursor" INTEGER,
    "last_triggered_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "alert_rule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_target_state" (
    "id" SERIAL NOT NULL,
    "rule_id" INTEGER NOT NULL,
    "target" TEXT NOT NULL,
    "armed" BOOLEAN NOT NULL DEFAULT true,
    "last_value" DOUBLE PRECISION,
    "last_status" TEXT,
    "last_checked_at" TIMESTAMP(3),
    "last_triggered_at" TIMESTAMP(3),
    "memo" TEXT,

    CONSTRAINT "alert_target_state_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_trigger" (
    "id" SERIAL NOT NULL,
    "rule_id" INTEGER,
    "alert_type" TEXT NOT NULL,
    "target_scope" TEXT,
    "target" TEXT NOT NULL,
    "observed_value" DOUBLE PRECISION,
    "threshold" DOUBLE PRECISION,
    "reason" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "data_source" TEXT,
    "data_timestamp" TEXT,
    "status" TEXT NOT NULL,
    "diagnostics" TEXT,
    "triggered_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "alert_trigger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_delivery" (
    "id" SERIAL NOT NULL,
    "channel" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "error" TEXT,
    "title" TEXT NOT NULL,
    "related_kind" TEXT,
    "related_id" TEXT,
    "dedup_key" TEXT NOT NULL,
    "subject" TEXT,
    "latency_ms" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "notification_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portfolio_trade" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "side" TEXT NOT NULL,
    "stock_code" TEXT NOT NULL,
    "target_key" TEXT NOT NULL,
    "market" TEXT NOT NULL,
    "quantity" DOUBLE PRECISION NOT NULL,
    "price" DOUBLE PRECISION NOT NULL,
    "fee" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "trade_date" TEXT NOT NULL,
    "note" TEXT,
    "source" TEXT NOT NULL DEFAULT 'manual',
    "created_at" TIMESTAMP(3) NOT NULL,
    "tax" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL DEFAULT 'CNY',
    "trade_uid" TEXT,
    "dedup_hash" TEXT,

    CONSTRAINT "portfolio_trade_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portfolio_cash_ledger" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "event_date" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "amount" DOUBLE PRECISION NOT NULL,
    "currency" TEXT NOT NULL,
    "note" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "portfolio_cash_ledger_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portfolio_corporate_action" (
    "id" SERIAL NOT NULL,
    "account_id" INTEGER NOT NULL,
    "stock_code" TEXT NOT NULL,
    "target_key" TEXT NOT NULL,
    "market" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "effective_date" TEXT NOT NULL,
    "action_type" TEXT NOT NULL,
    "cash_dividend_per_share" DOUBLE PRECISION,
    "split_ratio" DOUBLE PRECISION,
    "note" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "portfolio_corporate_action_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "portfolio_fx_rate" (
    "id" SERIAL NOT NULL,
    "currency" TEXT NOT NULL,
    "rate" DOUBLE PRECISION NOT NULL,
    "rate_date" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "fetched_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "portfolio_fx_rate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "scheduled_run" (
    "id" SERIAL NOT NULL,
    "slot_key" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "owner" TEXT,
    "summary" TEXT,
    "error" TEXT,
    "trace_id" TEXT,
    "digest" TEXT,
    "started_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "scheduled_run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "backtest_run" (
    "id" TEXT NOT NULL,
    "trace_id" TEXT,
    "stock_code" TEXT NOT NULL,
    "stock_name" TEXT,
    "market" TEXT NOT NULL,
    "target_key" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "engine_version" TEXT NOT NULL,
    "data_source" TEXT,
    "requested_start" TEXT,
    "requested_end" TEXT,
    "start_date" TEXT,
    "end_date" TEXT,
    "last_bar_date" TEXT,
    "horizons" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "neutral_band_pct" DOUBLE PRECISION NOT NULL,
    "calls_total" INTEGER NOT NULL DEFAULT 0,
    "summary" TEXT,
    "series" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "started_at" TIMESTAMP(3),
    "completed_at" TIMESTAMP(3),

    CONSTRAINT "backtest_run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "backtest_call" (
    "backtest_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "date" TEXT NOT NULL,
    "close" DOUBLE PRECISION NOT NULL,
    "action" TEXT NOT NULL,
    "score" INTEGER,
    "ideal_buy" DOUBLE PRECISION,
    "stop_loss" DOUBLE PRECISION,
    "take_profit" DOUBLE PRECISION,
    "outcomes" TEXT NOT NULL,

    CONSTRAINT "backtest_call_pkey" PRIMARY KEY ("backtest_id","seq")
);

-- CreateTable
CREATE TABLE "report_evaluation" (
    "id" SERIAL NOT NULL,
    "analysis_history_id" INTEGER NOT NULL,
    "eval_window_days" INTEGER NOT NULL,
    "engine_version" TEXT NOT NULL,
    "eval_status" TEXT NOT NULL,
    "retryable" BOOLEAN NOT NULL,
    "unable_reason" TEXT,
    "stock_code" TEXT NOT NULL,
    "analysis_date" TEXT NOT NULL,
    "analysis_phase" TEXT NOT NULL,
    "action" TEXT,
    "direction_expected" TEXT,
    "position" TEXT NOT NULL,
    "anchor_date" TEXT,
    "start_price" DOUBLE PRECISION,
    "end_date" TEXT,
    "end_close" DOUBLE PRECISION,
    "max_high" DOUBLE PRECISION,
    "min_low" DOUBLE PRECISION,
    "stock_return_pct" DOUBLE PRECISION,
    "actual_movement" TEXT,
    "direction_correct" BOOLEAN,
    "outcome" TEXT,
    "stop_loss" DOUBLE PRECISION,
    "take_profit" DOUBLE PRECISION,
    "hit_stop_loss" BOOLEAN,
    "hit_take_profit" BOOLEAN,
    "first_hit" TEXT,
    "first_hit_date" TEXT,
    "first_hit_trading_days" INTEGER,
    "simulated_entry_price" DOUBLE PRECISION,
    "simulated_exit_price" DOUBLE PRECISION,
    "simulated_exit_reason" TEXT,
    "simulated_return_pct" DOUBLE PRECISION,
    "evaluated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "report_evaluation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_session" (
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "skills" TEXT,
    "context" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "last_active" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "agent_session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_message" (
    "id" SERIAL NOT NULL,
    "session_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'complete',
    "request_id" TEXT,
    "tool_calls" TEXT,
    "checks" TEXT,
    "skills" TEXT,
    "model" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "agent_message_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "admin_session_expires_at_idx" ON "admin_session"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "api_token_token_hash_key" ON "api_token"("token_hash");

-- CreateIndex
CREATE INDEX "api_token_created_at_idx" ON "api_token"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "analysis_history_query_id_key" ON "analysis_history"("query_id");

-- CreateIndex
CREATE INDEX "analysis_history_stock_code_id_idx" ON "analysis_history"("stock_code", "id");

-- CreateIndex
CREATE INDEX "analysis_history_target_key_id_idx" ON "analysis_history"("target_key", "id");

-- CreateIndex
CREATE INDEX "analysis_history_created_at_idx" ON "analysis_history"("created_at");

-- CreateIndex
CREATE INDEX "analysis_history_report_type_created_at_idx" ON "analysis_history"("report_type", "created_at");

-- CreateIndex
CREATE INDEX "analysis_news_history_id_position_idx" ON "analysis_news"("history_id", "position");

-- CreateIndex
CREATE INDEX "llm_usage_called_at_idx" ON "llm_usage"("called_at");

-- CreateIndex
CREATE INDEX "llm_usage_model_called_at_idx" ON "llm_usage"("model", "called_at");

-- CreateIndex
CREATE INDEX "stock_listing_name_zh_idx" ON "stock_listing"("name_zh");

-- CreateIndex
CREATE UNIQUE INDEX "analysis_task_active_key_key" ON "analysis_task"("active_key");

-- CreateIndex
CREATE INDEX "analysis_task_status_created_at_idx" ON "analysis_task"("status", "created_at");

-- CreateIndex
CREATE INDEX "analysis_task_created_at_idx" ON "analysis_task"("created_at");

-- CreateIndex
CREATE INDEX "analysis_task_completed_at_idx" ON "analysis_task"("completed_at");

-- CreateIndex
CREATE UNIQUE INDEX "decision_signal_dedup_key_key" ON "decision_signal"("dedup_key");

-- CreateIndex
CREATE INDEX "decision_signal_status_expires_at_idx" ON "decision_signal"("status", "expires_at");

-- CreateIndex
CREATE INDEX "decision_signal_target_key_status_created_at_idx" ON "decision_signal"("target_key", "status", "created_at");

-- CreateIndex
CREATE INDEX "decision_signal_created_at_idx" ON "decision_signal"("created_at");

-- CreateIndex
CREATE INDEX "decision_signal_relaxed_key_idx" ON "decision_signal"("relaxed_key");

-- CreateIndex
CREATE INDEX "decision_signal_source_report_id_idx" ON "decision_signal"("source_report_id");

-- CreateIndex
CREATE INDEX "decision_signal_trace_id_idx" ON "decision_signal"("trace_id");

-- CreateIndex
CREATE INDEX "decision_signal_outcome_engine_version_horizon_idx" ON "decision_signal_outcome"("engine_version", "horizon");

-- CreateIndex
CREATE UNIQUE INDEX "decision_signal_outcome_signal_id_horizon_engine_version_key" ON "decision_signal_outcome"("signal_id", "horizon", "engine_version");

-- CreateIndex
CREATE UNIQUE INDEX "decision_signal_feedback_signal_id_key" ON "decision_signal_feedback"("signal_id");

-- CreateIndex
CREATE INDEX "portfolio_position_target_key_idx" ON "portfolio_position"("target_key");

-- CreateIndex
CREATE UNIQUE INDEX "portfolio_position_account_id_target_key_key" ON "portfolio_position"("account_id", "target_key");

-- CreateIndex
CREATE INDEX "alert_rule_enabled_idx" ON "alert_rule"("enabled");

-- CreateIndex
CREATE INDEX "alert_rule_alert_type_idx" ON "alert_rule"("alert_type");

-- CreateIndex
CREATE INDEX "alert_rule_target_scope_target_idx" ON "alert_rule"("target_scope", "target");

-- CreateIndex
CREATE INDEX "alert_rule_source_idx" ON "alert_rule"("source");

-- CreateIndex
CREATE UNIQUE INDEX "alert_target_state_rule_id_target_key" ON "alert_target_state"("rule_id", "target");

-- CreateIndex
CREATE INDEX "alert_trigger_rule_id_triggered_at_idx" ON "alert_trigger"("rule_id", "triggered_at");

-- CreateIndex
CREATE INDEX "alert_trigger_target_triggered_at_idx" ON "alert_trigger"("target", "triggered_at");

-- CreateIndex
CREATE INDEX "alert_trigger_status_triggered_at_idx" ON "alert_trigger"("status", "triggered_at");

-- CreateIndex
CREATE INDEX "alert_trigger_triggered_at_idx" ON "alert_trigger"("triggered_at");

-- CreateIndex
CREATE INDEX "notification_delivery_dedup_key_channel_created_at_idx" ON "notification_delivery"("dedup_key", "channel", "created_at");

-- CreateIndex
CREATE INDEX "notification_delivery_subject_channel_created_at_idx" ON "notification_delivery"("subject", "channel", "created_at");

-- CreateIndex
CREATE INDEX "notification_delivery_related_kind_related_id_idx" ON "notification_delivery"("related_kind", "related_id");

-- CreateIndex
CREATE INDEX "notification_delivery_created_at_idx" ON "notification_delivery"("created_at");

-- CreateIndex
CREATE INDEX "portfolio_trade_account_id_trade_date_id_idx" ON "portfolio_trade"("account_id", "trade_date", "id");

-- CreateIndex
CREATE INDEX "portfolio_trade_account_id_target_key_idx" ON "portfolio_trade"("account_id", "target_key");

-- CreateIndex
CREATE UNIQUE INDEX "portfolio_trade_account_id_trade_uid_key" ON "portfolio_trade"("account_id", "trade_uid");

-- CreateIndex
CREATE UNIQUE INDEX "portfolio_trade_account_id_dedup_hash_key" ON "portfolio_trade"("account_id", "dedup_hash");

-- CreateIndex
CREATE INDEX "portfolio_cash_ledger_account_id_event_date_id_idx" ON "portfolio_cash_ledger"("account_id", "event_date", "id");

-- CreateIndex
CREATE INDEX "portfolio_cash_ledger_event_date_id_idx" ON "portfolio_cash_ledger"("event_date", "id");

-- CreateIndex
CREATE INDEX "portfolio_corporate_action_account_id_effective_date_id_idx" ON "portfolio_corporate_action"("account_id", "effective_date", "id");

-- CreateIndex
CREATE INDEX "portfolio_corporate_action_account_id_target_key_idx" ON "portfolio_corporate_action"("account_id", "target_key");

-- CreateIndex
CREATE INDEX "portfolio_corporate_action_effective_date_id_idx" ON "portfolio_corporate_action"("effective_date", "id");

-- CreateIndex
CREATE UNIQUE INDEX "portfolio_fx_rate_currency_rate_date_key" ON "portfolio_fx_rate"("currency", "rate_date");

-- CreateIndex
CREATE UNIQUE INDEX "scheduled_run_slot_key_key" ON "scheduled_run"("slot_key");

-- CreateIndex
CREATE UNIQUE INDEX "scheduled_run_trace_id_key" ON "scheduled_run"("trace_id");

-- CreateIndex
CREATE INDEX "scheduled_run_started_at_idx" ON "scheduled_run"("started_at");

-- CreateIndex
CREATE INDEX "scheduled_run_digest_idx" ON "scheduled_run"("digest");

-- CreateIndex
CREATE INDEX "backtest_run_created_at_idx" ON "backtest_run"("created_at");

-- CreateIndex
CREATE INDEX "backtest_run_target_key_engine_version_status_completed_at_idx" ON "backtest_run"("target_key", "engine_version", "status", "completed_at");

-- CreateIndex
CREATE INDEX "report_evaluation_eval_window_days_engine_version_analysis__idx" ON "report_evaluation"("eval_window_days", "engine_version", "analysis_date");

-- CreateIndex
CREATE INDEX "report_evaluation_stock_code_eval_window_days_idx" ON "report_evaluation"("stock_code", "eval_window_days");

-- CreateIndex
CREATE UNIQUE INDEX "report_evaluation_analysis_history_id_eval_window_days_engi_key" ON "report_evaluation"("analysis_history_id", "eval_window_days", "engine_version");

-- CreateIndex
CREATE INDEX "agent_session_last_active_idx" ON "agent_session"("last_active");

-- CreateIndex
CREATE INDEX "agent_message_session_id_id_idx" ON "agent_message"("session_id", "id");

-- AddForeignKey
ALTER TABLE "analysis_news" ADD CONSTRAINT "analysis_news_history_id_fkey" FOREIGN KEY ("history_id") REFERENCES "analysis_history"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "decision_signal_outcome" ADD CONSTRAINT "decision_signal_outcome_signal_id_fkey" FOREIGN KEY ("signal_id") REFERENCES "decision_signal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "decision_signal_feedback" ADD CONSTRAINT "decision_signal_feedback_signal_id_fkey" FOREIGN KEY ("signal_id") REFERENCES "decision_signal"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portfolio_position" ADD CONSTRAINT "portfolio_position_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "portfolio_account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_target_state" ADD CONSTRAINT "alert_target_state_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_trigger" ADD CONSTRAINT "alert_trigger_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "alert_rule"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portfolio_trade" ADD CONSTRAINT "portfolio_trade_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "portfolio_account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portfolio_cash_ledger" ADD CONSTRAINT "portfolio_cash_ledger_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "portfolio_account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portfolio_corporate_action" ADD CONSTRAINT "portfolio_corporate_action_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "portfolio_account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "backtest_call" ADD CONSTRAINT "backtest_call_backtest_id_fkey" FOREIGN KEY ("backtest_id") REFERENCES "backtest_run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "report_evaluation" ADD CONSTRAINT "report_evaluation_analysis_history_id_fkey" FOREIGN KEY ("analysis_history_id") REFERENCES "analysis_history"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_message" ADD CONSTRAINT "agent_message_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "agent_session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

