// The rule set's name. Bump it whenever a change can alter a decision (action, score or
// plan) for the same bars, so stored reports, signals and backtest runs of two rule sets stay comparable.
export const RULE_ENGINE_VERSION = "rules-v6";

/** Trading days of history one decision looks at: enough for MA60 and swing levels with room to spare. */
export const ANALYSIS_WINDOW_BARS = 250;
