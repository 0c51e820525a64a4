import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import type { TRunFlowSnapshot } from "@/lib/analysis/run-schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { formatDuration, stageLabel } from "./format";

type Texts = Dictionary["historyUi"];
type FlowNode = TRunFlowSnapshot["nodes"][number];
type FlowEdge = TRunFlowSnapshot["edges"][number];
type FlowStatus = FlowNode["status"];

const W = 136;
const H = 46;
const GAP_X = 28;
const GAP_Y = 18;
const PAD = 12;

interface Placed {
  node: FlowNode;
  col: number;
  row: number;
}

/**
 * Columns follow the control edges (the order the steps ran, longest path from the entry); the nodes that only
 * feed a step (data-source attempts, fallbacks) stack below that step in its column.
 */
export function layoutFlow(flow: Pick<TRunFlowSnapshot, "nodes" | "edges">): Placed[] {
  const ids = new Set(flow.nodes.map((n) => n.id));
  const edges = flow.edges.filter((e) => ids.has(e.from) && ids.has(e.to) && e.from !== e.to);
  const control = edges.filter((e) => e.kind === "control");
  const onChain = new Set(control.flatMap((e) => [e.from, e.to]));
  const touched = new Set(edges.flatMap((e) => [e.from, e.to]));
  const main = flow.nodes.filter((n) => onChain.has(n.id) || !touched.has(n.id));

  // Longest path over control edges, relaxed in node order (the recorder lists steps in run order); a cycle cannot loop forever.
  const col = new Map<string, number>(main.map((n) => [n.id, 0]));
  for (let pass = 0; pass < main.length; pass++) {
    let changed = false;
    for (const e of control) {
      const next = (col.get(e.from) ?? 0) + 1;
      if (next > (col.get(e.to) ?? 0) && next < main.length + 1) {
        col.set(e.to, next);
        changed = true;
      }
    }
    if (!changed) break;
  }

  const taken = new Set<string>();
  const place = (c: number, fromRow: number) => {
    let r = fromRow;
    while (taken.has(`${c}:${r}`)) r++;
    taken.add(`${c}:${r}`);
    return r;
  };
  const placed: Placed[] = main.map((node) => {
    const c = col.get(node.id) ?? 0;
    return { node, col: c, row: place(c, 0) };
  });
  const where = new Map(placed.map((p) => [p.node.id, p]));
  let spare = Math.max(0, ...placed.map((p) => p.col)) + 1;
  for (const node of flow.nodes) {
    if (where.has(node.id)) continue;
    const link =
      edges.find((e) => e.from === node.id && where.has(e.to)) ??
      edges.find((e) => e.to === node.id && where.has(e.from));
    const anchor = link ? where.get(link.from === node.id ? link.to : link.from) : undefined;
    const c = anchor ? anchor.col : spare++;
    const p = { node, col: c, row: place(c, anchor ? anchor.row + 1 : 0) };
    placed.push(p);
    where.set(node.id, p);
  }
  return placed;
}

const STATUS_STYLE: Record<FlowStatus, { box: string; mark: string; text: string }> = {
  success: { box: "stroke-accent", mark: "✓", text: "fill-accent" },
  running: { box: "stroke-accent", mark: "…", text: "fill-accent" },
  pending: { box: "stroke-line", mark: "·", text: "fill-muted" },
  degraded: { box: "stroke-amber-500", mark: "!", text: "fill-amber-600 dark:fill-amber-400" },
  fallback: { box: "stroke-amber-500", mark: "↺", text: "fill-amber-600 dark:fill-amber-400" },
  timeout: { box: "stroke-amber-500", mark: "!", text: "fill-amber-600 dark:fill-amber-400" },
  failed: { box: "stroke-fg", mark: "✕", text: "fill-fg" },
  cancel_requested: { box: "stroke-line", mark: "–", text: "fill-muted" },
  cancelled: { box: "stroke-line", mark: "–", text: "fill-muted" },
  skipped: { box: "stroke-line", mark: "–", text: "fill-muted" },
  unknown: { box: "stroke-line", mark: "?", text: "fill-muted" },
};

function clip(text: string, max: number): string {
  // CJK characters are about twice as wide as Latin ones at the same font size.
  let width = 0;
  let out = "";
  for (const ch of text) {
    width += /[\u2e80-\uffff]/.test(ch) ? 2 : 1;
    if (width > max) return `${out}…`;
    out += ch;
  }
  return out;
}

function edgePath(from: Placed, to: Placed): string {
  const fx = PAD + from.col * (W + GAP_X);
  const fy = PAD + from.row * (H + GAP_Y);
  const tx = PAD + to.col * (W + GAP_X);
  const ty = PAD + to.row * (H + GAP_Y);
  if (from.col === to.col) {
    // A feeder below its step: out of the left side, up a short bus, into the step's lower left.
    const bus = fx - 10;
    const [y1, y2] = from.row > to.row ? [fy + H / 2, ty + H - 8] : [fy + H - 8, ty + H / 2];
    return `M ${fx} ${y1} H ${bus} V ${y2} H ${tx - 1}`;
  }
  const x1 = from.col < to.col ? fx + W : fx;
  const x2 = from.col < to.col ? tx - 1 : tx + W + 1;
  const y1 = fy + H / 2;
  const y2 = ty + H / 2;
  const bend = (x2 - x1) / 2;
  return `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`;
}

function edgeClass(edge: FlowEdge): string {
  if (edge.status === "failed") return "stroke-fg/60";
  if (edge.kind === "fallback" || edge.kind === "retry") return "stroke-amber-500";
  return edge.kind === "control" ? "stroke-muted" : "stroke-muted/70";
}

function FlowSvg({ t, flow, placed }: { t: Texts; flow: TRunFlowSnapshot; placed: Placed[] }) {
  const where = new Map(placed.map((p) => [p.node.id, p]));
  const cols = Math.max(...placed.map((p) => p.col)) + 1;
  const rows = Math.max(...placed.map((p) => p.row)) + 1;
  const width = PAD * 2 + cols * W + (cols - 1) * GAP_X;
  const height = PAD * 2 + rows * H + (rows - 1) * GAP_Y;
  const edges = flow.edges.filter((e) => where.has(e.from) && where.has(e.to) && e.from !== e.to);
  return (
    <svg
      role="img"
      aria-label={fmt(t.flowAria, { nodes: placed.length, edges: edges.length })}
      data-testid="flow-graph"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      className="block text-[11px]"
    >
      <defs>
        <marker
          id="flow-arrow"
          viewBox="0 0 8 8"
          refX="7"
          refY="4"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M 0 0 L 8 4 L 0 8 z" className="fill-muted" />
        </marker>
      </defs>
      {edges.map((edge) => (
        <path
          key={edge.id}
          d={edgePath(where.get(edge.from)!, where.get(edge.to)!)}
          data-testid="flow-edge"
          data-from={edge.from}
          data-to={edge.to}
          data-kind={edge.kind}
          fill="none"
          strokeWidth={1.25}
          strokeDasharray={edge.kind === "control" ? undefined : "4 3"}
          markerEnd="url(#flow-arrow)"
          className={edgeClass(edge)}
        >
          <title>{`${edge.from} → ${edge.to} (${edge.kind}, ${t.flowStatus[edge.status]})`}</title>
        </path>
      ))}
      {placed.map(({ node, col, row }) => {
        const x = PAD + col * (W + GAP_X);
        const y = PAD + row * (H + GAP_Y);
        const style = STATUS_STYLE[node.status];
        const label = stageLabel(t, node.id, node.label);
        const detail = [
          t.flowStatus[node.status],
          node.duration_ms !== null && node.duration_ms !== undefined ? formatDuration(node.duration_ms) : null,
          node.record_count ? `×${node.record_count}` : null,
        ]
          .filter(Boolean)
          .join(" · ");
        return (
          <g
            key={node.id}
            transform={`translate(${x} ${y})`}
            data-testid="flow-node"
            data-node-id={node.id}
            data-status={node.status}
          >
            <title>{[label, node.provider, t.flowStatus[node.status], node.message].filter(Boolean).join(" — ")}</title>
            <rect
              width={W}
              height={H}
              rx={5}
              strokeWidth={node.status === "failed" ? 1.75 : 1.25}
              className={cx("fill-surface", style.box)}
            />
            <text x={9} y={18} className="fill-fg font-medium">
              {clip(label, 19)}
            </text>
            <text x={9} y={35} className={style.text}>
              {`${style.mark} ${clip(detail, 20)}`}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

// The run flow stored with a record, drawn as a small graph, with its summary and a step list (the text of every node).
export function FlowGraph({ t, flow }: { t: Texts; flow: TRunFlowSnapshot }) {
  const placed = layoutFlow(flow);
  const byId = new Map(flow.nodes.map((n) => [n.id, n]));
  const bottleneck = flow.summary.bottleneck_node_id
    ? stageLabel(
        t,
        flow.summary.bottleneck_node_id,
        byId.get(flow.summary.bottleneck_node_id)?.label ?? flow.summary.bottleneck_node_id,
      )
    : null;
  return (
    <Panel>
      <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-line px-3 py-2">
        <h2 className="text-sm font-semibold">{t.flowTitle}</h2>
        <span
          className={cx(
            "text-xs font-medium",
            flow.status === "success"
              ? "text-accent"
              : flow.status === "failed"
                ? "text-fg"
                : "text-amber-700 dark:text-amber-400",
          )}
        >
          {t.flowStatus[flow.status]}
        </span>
      </div>
      {placed.length === 0 ? (
        <p className="px-3 py-3 text-sm text-muted">{t.flowEmpty}</p>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1.5 border-b border-line px-3 py-2 text-xs sm:grid-cols-5">
            {[
              [t.flowElapsed, formatDuration(flow.summary.elapsed_ms)],
              [t.flowBottleneck, bottleneck ?? "—"],
              [t.flowSources, String(flow.summary.data_source_count)],
              [t.flowFailedAttempts, String(flow.summary.failed_attempts)],
              [t.flowFallbacks, String(flow.summary.fallback_count)],
            ].map(([label, value]) => (
              <div key={label} className="min-w-0">
                <dt className="text-muted">{label}</dt>
                <dd className="truncate font-medium tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
          <div
            tabIndex={0}
            className="overflow-x-auto px-1 py-1 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
          >
            <FlowSvg t={t} flow={flow} placed={placed} />
          </div>
          <p className="px-3 pb-1 text-[11px] text-muted">{t.flowLegend}</p>
          <ol className="divide-y divide-line border-t border-line text-xs" data-testid="flow-steps">
            {flow.nodes.map((node) => (
              <li key={node.id} className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 px-3 py-1">
                <span className="min-w-0">
                  <span className="font-medium">{stageLabel(t, node.id, node.label)}</span>
                  {node.provider && node.provider !== node.label ? (
                    <span className="ml-1.5 font-mono text-muted">{node.provider}</span>
                  ) : null}
                  {node.message ? (
                    <span className="block truncate text-muted" title={node.message}>
                      {node.message}
                    </span>
                  ) : null}
                </span>
                <span className="text-right whitespace-nowrap text-muted tabular-nums">
                  {t.flowStatus[node.status]}
                  {node.duration_ms !== null && node.duration_ms !== undefined
                    ? ` · ${formatDuration(node.duration_ms)}`
                    : ""}
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </Panel>
  );
}
