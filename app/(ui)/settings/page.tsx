import { pageMetadata } from "@/components/shell/coming-soon-page";
import { AuthPanel } from "@/components/settings/auth-panel";
import { BotsPanel } from "@/components/settings/bots-panel";
import { DataPanel } from "@/components/settings/data-panel";
import { DisplayPanel } from "@/components/settings/display-panel";
import { NotifyPanel } from "@/components/settings/notify-panel";
import { PushPanel } from "@/components/settings/push-panel";
import { SchedulePanel } from "@/components/settings/schedule-panel";
import { SettingsEditor } from "@/components/settings/settings-editor";
import { TokensPanel } from "@/components/settings/tokens-panel";
import { listApiTokens } from "@/lib/auth/api-tokens";
import { botStatus } from "@/lib/bots/status";
import { requireUiSession } from "@/lib/auth/ui-session";
import { getSettings } from "@/lib/settings/settings";
import { getSystemConfig } from "@/lib/config/system-config";
import { listCsvDataFiles } from "@/lib/data/csv-files";
import { CONFIG_FIELD_TEXTS_ZH, UNKNOWN_CONFIG_FIELD_DESCRIPTION_ZH } from "@/lib/i18n/config-fields";
import { getI18n } from "@/lib/i18n/locale";
import { RECENT_DELIVERIES } from "@/lib/notify/schemas";
import { csvDataDir } from "@/lib/market/providers/csv";
import { listChannels, listDeliveries } from "@/lib/notify/service";
import { listSubscriptions } from "@/lib/push/service";
import { schedulerStatus } from "@/lib/schedule";

export const dynamic = "force-dynamic";
export const generateMetadata = () => pageMetadata("settings");

// The settings page generated from the config schema. The config is read on the server
// through lib/config; edits go through the config API from the client components.
export default async function SettingsPage() {
  const auth = await requireUiSession("/settings");
  const { locale, t } = await getI18n();
  const config = getSystemConfig({ includeSchema: true });
  const [schedule, deliveries, dataFiles, tokens, bots, pushDevices] = await Promise.all([
    schedulerStatus(5),
    listDeliveries({ page: 1, page_size: RECENT_DELIVERIES }),
    listCsvDataFiles(),
    listApiTokens(),
    botStatus(),
    listSubscriptions(),
  ]);
  return (
    <div className="mx-auto max-w-5xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.pages.settings.title}</h1>
      <p className="mt-1 text-sm text-muted">{t.settingsUi.intro}</p>
      <div className="mt-4">
        <SettingsEditor
          t={t.settingsUi}
          initial={config}
          fieldTexts={
            locale === "zh-CN"
              ? { fields: CONFIG_FIELD_TEXTS_ZH, unknownDescription: UNKNOWN_CONFIG_FIELD_DESCRIPTION_ZH }
              : undefined
          }
          backupAllowed={auth.authEnabled}
          aside={
            <>
              <DisplayPanel t={t.displayUi} />
              <AuthPanel
                t={t.settingsUi}
                tAuth={t.auth}
                authEnabled={auth.authEnabled}
                hasPassword={auth.hasPassword}
              />
              <TokensPanel t={t.tokensUi} initial={tokens} authEnabled={auth.authEnabled} />
              <SchedulePanel t={t.scheduleUi} initial={schedule} />
              <NotifyPanel
                t={t.notifyUi}
                channels={listChannels().channels}
                initialDeliveries={deliveries.items}
                pageSize={RECENT_DELIVERIES}
              />
              <PushPanel t={t.pushUi} initial={pushDevices.items} />
              <BotsPanel t={t.botsUi} status={bots} origin={getSettings().PUBLIC_BASE_URL} />
              <DataPanel
                t={t.dataUi}
                rejections={t.analyzeUi.rejectionReasons}
                initial={dataFiles.items}
                sources={getSettings().MARKET_DATA_SOURCES}
                folder={csvDataDir()}
              />
            </>
          }
        />
      </div>
    </div>
  );
}
