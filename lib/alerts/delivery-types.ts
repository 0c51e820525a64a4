// An alert firing as the evaluator hands it to delivery (deliver.ts) and what delivery answers: apart from both,
// so that neither imports the other for its types.

export interface AlertMessage {
  triggerId: number;
  ruleId: number;
  ruleName: string;
  severity: string;
  target: string;
  title: string;
  text: string;
  observed: number | null;
  threshold: number | null;
}

export interface DeliveryOutcome {
  status: "sent" | "failed" | "suppressed";
  detail: Record<string, unknown>;
}

export type AlertDeliver = (message: AlertMessage) => Promise<DeliveryOutcome>;
