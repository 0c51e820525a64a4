import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { normalizeParameters, type TAlertType } from "./parameters";

// Rules stored before the reference's alert types are carried into the new shape by the migration,
// so nothing stored is lost: each old type becomes the new type that checks the same thing.

const ROOT = path.resolve(process.cwd(), "prisma/migrations");
const MIGRATION = "20261125120000_alert_scopes";

function migrate(db: Database.Database, until: (name: string) => boolean): void {
  for (const name of fs
    .readdirSync(ROOT)
    .filter((n) => /^\d{14}_/.test(n))
    .sort()) {
    if (!until(name)) continue;
    db.exec(fs.readFileSync(path.join(ROOT, name, "migration.sql"), "utf8"));
  }
}

describe("migration of stored alert rules", () => {
  it("price_above/below → price_cross, change_pct_beyond → price_change_percent up and down, volume_ratio_above → volume_spike", () => {
    const db = new Database(":memory:");
    migrate(db, (name) => name < MIGRATION);
    const at = Date.UTC(2026, 10, 19);
    const insert = db.prepare(
      `INSERT INTO alert_rule (name, alert_type, target, target_key, market, parameters, severity, enabled, cooldown_minutes, armed, signal_cursor, last_value, last_checked_at, last_triggered_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    insert.run(
      "above",
      "price_above",
      "600519",
      "stock:cn:600519",
      "cn",
      '{"price":1500}',
      "warning",
      1,
      60,
      0,
      null,
      1600,
      at,
      at,
      at,
      at,
    );
    insert.run(
      "below",
      "price_below",
      "AAPL",
      "stock:us:AAPL",
      "us",
      '{"price":100}',
      "info",
      1,
      30,
      1,
      null,
      null,
      null,
      null,
      at,
      at,
    );
    insert.run(
      "change",
      "change_pct_beyond",
      "000001",
      "stock:cn:000001",
      "cn",
      '{"change_pct":5}',
      "critical",
      0,
      0,
      1,
      null,
      null,
      null,
      null,
      at,
      at,
    );
    insert.run(
      "volume",
      "volume_ratio_above",
      "00700",
      "stock:hk:00700",
      "hk",
      '{"ratio":2.5}',
      "warning",
      1,
      60,
      1,
      null,
      null,
      null,
      null,
      at,
      at,
    );
    insert.run(
      "signal",
      "signal_action",
      "600519",
      "stock:cn:600519",
      "cn",
      '{"action":"buy"}',
      "warning",
      1,
      60,
      1,
      7,
      null,
      null,
      null,
      at,
      at,
    );
    const trigger = db.prepare(
      `INSERT INTO alert_trigger (rule_id, alert_type, target, observed_value, threshold, reason, message, status, diagnostics, triggered_at) VALUES (?, ?, ?, 1, 1, 'r', 'm', ?, ?, ?)`,
    );
    trigger.run(1, "price_above", "600519", "sent", '{"severity":"warning","delivery":{"result":"sent"}}', at);
    trigger.run(3, "change_pct_beyond", "000001", "suppressed", null, at);
    migrate(db, (name) => name === MIGRATION);

    const rules = db
      .prepare(
        "SELECT id, name, alert_type, target_scope, target, parameters, severity, enabled, source, cooldown_seconds, signal_cursor FROM alert_rule ORDER BY id",
      )
      .all() as Record<string, unknown>[];
    expect(
      rules.map((r) => [r.id, r.name, r.alert_type, JSON.parse(r.parameters as string), r.cooldown_seconds, r.enabled]),
    ).toEqual([
      [1, "above", "price_cross", { direction: "above", price: 1500 }, 3600, 1],
      [2, "below", "price_cross", { direction: "below", price: 100 }, 1800, 1],
      [3, "change ↑", "price_change_percent", { direction: "up", change_pct: 5 }, 0, 0],
      [4, "volume", "volume_spike", { multiplier: 2.5 }, 3600, 1],
      [5, "signal", "signal_action", { action: "buy" }, 3600, 1],
      [6, "change ↓", "price_change_percent", { direction: "down", change_pct: 5 }, 0, 0],
    ]);
    for (const r of rules) {
      expect(r).toMatchObject({ target_scope: "single_symbol", source: "api" });
      expect(
        normalizeParameters(r.alert_type as TAlertType, JSON.parse(r.parameters as string)),
        String(r.name),
      ).toMatchObject({ ok: true });
    }
    expect(rules[4]!.signal_cursor).toBe(7);

    // The crossing state of each old rule is the state of its one target.
    const states = db
      .prepare("SELECT rule_id, target, armed, last_value FROM alert_target_state ORDER BY rule_id")
      .all();
    expect(states).toEqual([
      { rule_id: 1, target: "600519", armed: 0, last_value: 1600 },
      { rule_id: 2, target: "AAPL", armed: 1, last_value: null },
      { rule_id: 3, target: "000001", armed: 1, last_value: null },
      { rule_id: 4, target: "00700", armed: 1, last_value: null },
      { rule_id: 5, target: "600519", armed: 1, last_value: null },
    ]);

    // Stored firings: triggered, the delivery outcome kept in diagnostics, the new type names.
    const triggers = db
      .prepare("SELECT alert_type, target_scope, status, diagnostics FROM alert_trigger ORDER BY id")
      .all() as Record<string, string>[];
    expect(triggers.map((t) => [t.alert_type, t.target_scope, t.status, JSON.parse(t.diagnostics!)])).toEqual([
      [
        "price_cross",
        "single_symbol",
        "triggered",
        { severity: "warning", delivery: { result: "sent" }, delivery_status: "sent" },
      ],
      ["price_change_percent", "single_symbol", "triggered", { delivery_status: "suppressed" }],
    ]);
    expect(db.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
    db.close();
  });
});
