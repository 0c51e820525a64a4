// The one table of error codes and the HTTP status each one is sent with (spec section 7, docs/api.md §1).
export const ERROR_STATUS = {
  validation_error: 400,
  invalid_request: 400,
  validation_failed: 400,
  invalid_import_file: 400,
  auth_disabled: 400,
  password_required: 400,
  password_mismatch: 400,
  invalid_password: 400,
  current_required: 400,
  not_changeable: 400,
  // Decision signals (spec 7: invalid signal fields, illegal status): price plan against the action, unknown
  // status, and a move out of a terminal status back to active.
  invalid_price_plan: 400,
  invalid_signal_status: 400,
  invalid_status_transition: 400,
  // Alerts (docs/api.md §12.2.1): an alert_type the service does not evaluate.
  unsupported_alert_type: 400,
  // A position analysis of a symbol held in several accounts without account_id (the reference's code).
  ambiguous_position_account: 400,
  // Watchlist and its import (docs/api.md §12.7, the reference's codes): a code or name that does not resolve;
  // parse-import's malformed JSON, missing input and unreadable file; extract-from-image's image type and model failure.
  invalid_stock_code: 400,
  invalid_json: 400,
  bad_request: 400,
  parse_failed: 400,
  unsupported_type: 400,
  extract_failed: 400,
  // Decision-signal reassess (the reference's codes): a market review has no stock call; a report without an action;
  // a persist the profile gate refuses (the body carries blocked_reason and warnings).
  unsupported_report_type: 400,
  unsupported_report_snapshot: 400,
  guardrail_blocked: 400,
  unauthorized: 401,
  forbidden: 403,
  env_backup_access_denied: 403,
  not_found: 404,
  source_report_not_found: 404,
  // Agent chat (the reference's codes): cancel of a turn that is no longer running; a request_id already running.
  request_not_active: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  duplicate_task: 409,
  duplicate_market_review: 409,
  config_version_conflict: 409,
  conflict: 409,
  // Portfolio (docs/api.md §12.1.10): a sell above what is held at its date; a write that could not get the database.
  portfolio_oversell: 409,
  portfolio_busy: 409,
  request_conflict: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  share_image_too_large: 413,
  unsupported_media_type: 415,
  request_validation_error: 422,
  rate_limited: 429,
  request_header_too_large: 431,
  analysis_failed: 500,
  generation_failed: 500,
  internal_error: 500,
  share_image_unavailable: 503,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
