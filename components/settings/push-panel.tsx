"use client";

import { useState, useSyncExternalStore } from "react";
import { postJson } from "@/components/auth/api-errors";
import { BUTTON_SECONDARY, FormMessage } from "@/components/auth/password-input";
import { useFormatTime } from "@/components/shell/time-zone";
import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { TPushSubscription } from "@/lib/push/schemas";
import { fmt } from "./format";

type PushTexts = Dictionary["pushUi"];
type Message = { tone: "error" | "success"; text: string } | null;

// Which subscription is this browser's: its id, kept by the browser (the server never shows endpoints).
const DEVICE_KEY = "dsa_push_subscription_id";

function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const raw = atob(
    base64url
      .replace(/-/g, "+")
      .replace(/_/g, "/")
      .padEnd(Math.ceil(base64url.length / 4) * 4, "="),
  );
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

const noChange = () => () => {};

function storedDeviceId(): number | null {
  const stored = Number(localStorage.getItem(DEVICE_KEY));
  return Number.isInteger(stored) && stored > 0 ? stored : null;
}

function pushSupported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function deviceLabel(): string {
  const ua = navigator.userAgent;
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Chrome\//.test(ua)
      ? "Chrome"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Safari\//.test(ua)
          ? "Safari"
          : "Browser";
  const system = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad/.test(ua)
      ? "iOS"
      : /Mac OS X/.test(ua)
        ? "macOS"
        : /Windows/.test(ua)
          ? "Windows"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return system ? `${browser} · ${system}` : browser;
}

// Web Push on this device: permission, the browser's push subscription with the service's VAPID key, and the list of
// subscribed devices (any can be removed here).
export function PushPanel({ t, initial }: { t: PushTexts; initial: TPushSubscription[] }) {
  const formatTime = useFormatTime();
  const [devices, setDevices] = useState(initial);
  // Read from the browser after hydration (the server cannot know): this device's subscription and push support.
  const stored = useSyncExternalStore(noChange, storedDeviceId, () => null);
  const [chosen, setMine] = useState<number | null | undefined>(undefined);
  const mine = chosen === undefined ? stored : chosen;
  const supported = useSyncExternalStore(noChange, pushSupported, () => true);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);

  async function reload() {
    const res = await fetch("/api/v1/push/subscriptions", { cache: "no-store" });
    if (res.ok) setDevices(((await res.json()) as { items: TPushSubscription[] }).items);
  }

  async function subscribe() {
    setBusy(true);
    setMessage(null);
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        setMessage({ tone: "error", text: t.denied });
        return;
      }
      const key = await postJson("/api/v1/push/vapid-key");
      if (!key.ok) throw new Error(key.failure?.message ?? "network error");
      const { public_key } = (await key.res.json()) as { public_key: string };
      const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: applicationServerKey(public_key),
      });
      const saved = await postJson("/api/v1/push/subscriptions", { ...subscription.toJSON(), label: deviceLabel() });
      if (!saved.ok) throw new Error(saved.failure?.message ?? "network error");
      const device = (await saved.res.json()) as TPushSubscription;
      localStorage.setItem(DEVICE_KEY, String(device.id));
      setMine(device.id);
      setMessage({ tone: "success", text: t.subscribed });
      await reload();
    } catch (error) {
      setMessage({
        tone: "error",
        text: fmt(t.failed, { message: error instanceof Error ? error.message : String(error) }),
      });
    } finally {
      setBusy(false);
    }
  }

  async function remove(id: number) {
    setBusy(true);
    setMessage(null);
    if (id === mine) {
      const registration = await navigator.serviceWorker?.getRegistration("/");
      await (await registration?.pushManager.getSubscription())?.unsubscribe().catch(() => false);
      localStorage.removeItem(DEVICE_KEY);
      setMine(null);
    }
    await fetch(`/api/v1/push/subscriptions/${id}`, { method: "DELETE", credentials: "same-origin" });
    await reload();
    setBusy(false);
  }

  const subscribedHere = mine !== null && devices.some((d) => d.id === mine);
  return (
    <Panel className="flex flex-col gap-2 px-4 py-3">
      <h2 id="push" className="text-sm font-semibold">
        {t.title}
      </h2>
      <p className="text-xs leading-5 text-muted">{t.intro}</p>
      {!supported ? (
        <FormMessage tone="error">{t.unsupported}</FormMessage>
      ) : subscribedHere ? (
        <button
          type="button"
          disabled={busy}
          onClick={() => remove(mine!)}
          className={`${BUTTON_SECONDARY} self-start`}
        >
          {busy ? t.working : t.unsubscribe}
        </button>
      ) : (
        <button type="button" disabled={busy} onClick={subscribe} className={`${BUTTON_SECONDARY} self-start`}>
          {busy ? t.working : t.subscribe}
        </button>
      )}
      {message && <FormMessage tone={message.tone}>{message.text}</FormMessage>}
      <h3 className="mt-1 text-xs font-semibold text-muted">{t.devices}</h3>
      {devices.length === 0 ? (
        <p className="text-xs text-muted">{t.noDevices}</p>
      ) : (
        <ul aria-label={t.devices} className="flex flex-col">
          {devices.map((device) => (
            <li
              key={device.id}
              data-testid="push-device"
              className="flex items-center gap-2 border-t border-line py-1.5 text-xs"
            >
              <span className="min-w-0 flex-1">
                <span className="font-medium">{device.label}</span>
                {device.id === mine ? <span className="text-muted"> · {t.thisDevice}</span> : null}
                <span className="block text-muted">
                  {device.service} ·{" "}
                  {device.last_sent_at ? fmt(t.lastSent, { at: formatTime(device.last_sent_at) }) : t.never}
                </span>
              </span>
              <button
                type="button"
                disabled={busy}
                onClick={() => remove(device.id)}
                className={`${BUTTON_SECONDARY} min-h-9 px-3 py-1 text-xs`}
              >
                {t.remove}
              </button>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
