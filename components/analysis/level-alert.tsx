"use client";

import Link from "next/link";
import { useState } from "react";
import { messageOf, requestJson } from "@/components/ui/request";
import { fmt } from "@/components/settings/format";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

type Texts = Dictionary["analyzeUi"];
type State =
  | { step: "idle" }
  | { step: "working" }
  | { step: "created"; ruleId: number }
  | { step: "failed"; message: string };

const NAME_MAX = 100; // ZAlertRuleCreate.name

/**
 * "set an alert here" on one key level. The Alerts page takes no prefill, so the rule is created
 * straight through the Alerts API (docs/api.md §12.2: a price_cross rule on the stock at the level's price, in the
 * direction the price has to move to reach it), and the outcome is shown in place.
 */
export function LevelAlertButton({
  t,
  target,
  stockName,
  label,
  price,
  priceText,
  direction,
}: {
  t: Texts;
  target: string;
  stockName: string;
  label: string;
  price: number;
  priceText: string;
  direction: "above" | "below";
}) {
  const [state, setState] = useState<State>({ step: "idle" });

  async function create() {
    setState({ step: "working" });
    try {
      const rule = await requestJson<{ id: number }>("POST", "/api/v1/alerts/rules", {
        alert_type: "price_cross",
        target_scope: "single_symbol",
        target,
        parameters: { direction, price },
        name: fmt(t.levelAlertName, { name: stockName, level: label, price: priceText }).slice(0, NAME_MAX),
      });
      setState({ step: "created", ruleId: rule.id });
    } catch (error) {
      setState({ step: "failed", message: messageOf(error) });
    }
  }

  if (state.step === "created") {
    return (
      <p
        role="status"
        data-testid="level-alert-created"
        data-rule-id={state.ruleId}
        className="mt-1 text-xs leading-4 text-muted"
      >
        {fmt(t.levelAlertCreated, { direction: t.levelAlertDirections[direction], price: priceText })}{" "}
        <Link href="/alerts" className="font-medium text-accent underline underline-offset-2">
          {t.levelAlertView}
        </Link>
      </p>
    );
  }
  return (
    <div className="mt-1">
      <button
        type="button"
        onClick={create}
        disabled={state.step === "working"}
        aria-label={fmt(t.levelAlertAria, { level: label, price: priceText })}
        className="text-xs font-medium text-accent underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:text-muted disabled:no-underline"
      >
        {state.step === "working" ? t.levelAlertWorking : t.levelAlert}
      </button>
      {state.step === "failed" ? (
        <p role="alert" data-testid="level-alert-error" className="mt-0.5 text-xs leading-4 break-words text-fg">
          {fmt(t.levelAlertFailed, { message: state.message })}
        </p>
      ) : null}
    </div>
  );
}
