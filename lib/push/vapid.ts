import webpush from "web-push";
import { updateEnvFile, type EnvUpdatePlan } from "@/lib/config/env-store";
import { getSettings } from "@/lib/settings/settings";

// The VAPID key pair of the push channel: generated once, when the first browser asks for it, and kept with the
// settings (the env file, or the config document with PostgreSQL). The read-modify-write runs under the config
// store's lock, so two replicas asking at once keep one pair.

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export function configuredVapidKeys(): VapidKeys | null {
  const settings = getSettings();
  return settings.WEB_PUSH_VAPID_PUBLIC_KEY && settings.WEB_PUSH_VAPID_PRIVATE_KEY
    ? { publicKey: settings.WEB_PUSH_VAPID_PUBLIC_KEY, privateKey: settings.WEB_PUSH_VAPID_PRIVATE_KEY }
    : null;
}

export async function ensureVapidKeys(): Promise<VapidKeys> {
  const known = configuredVapidKeys();
  if (known) return known;
  const outcome = await updateEnvFile<VapidKeys>({}, (snapshot): EnvUpdatePlan<VapidKeys> => {
    const publicKey = snapshot.values.WEB_PUSH_VAPID_PUBLIC_KEY ?? "";
    const privateKey = snapshot.values.WEB_PUSH_VAPID_PRIVATE_KEY ?? "";
    if (publicKey && privateKey) return { updates: {}, result: { publicKey, privateKey } };
    const fresh = webpush.generateVAPIDKeys();
    return {
      updates: { WEB_PUSH_VAPID_PUBLIC_KEY: fresh.publicKey, WEB_PUSH_VAPID_PRIVATE_KEY: fresh.privateKey },
      result: fresh,
    };
  });
  return outcome.result;
}

/** VAPID's sub: a contact the push services may use; PUBLIC_BASE_URL when it is https. */
export function vapidSubject(): string {
  const settings = getSettings();
  if (settings.WEB_PUSH_SUBJECT) return settings.WEB_PUSH_SUBJECT;
  return settings.PUBLIC_BASE_URL.startsWith("https://") ? settings.PUBLIC_BASE_URL : "mailto:admin@localhost";
}
