import type { PlatformClient, TBotPlatform } from "../types";
import { dingtalkClient } from "./dingtalk";
import { feishuClient } from "./feishu";
import { telegramClient } from "./telegram";
import { wecomClient } from "./wecom";

/** The reply side of each platform; its settings are read at each send, so a changed secret applies at once. */
export function platformClient(platform: TBotPlatform): PlatformClient {
  switch (platform) {
    case "telegram":
      return telegramClient();
    case "feishu":
      return feishuClient();
    case "dingtalk":
      return dingtalkClient();
    case "wecom":
      return wecomClient();
  }
}
