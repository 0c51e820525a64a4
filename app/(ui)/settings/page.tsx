import { ComingSoonPage, pageMetadata } from "@/components/shell/coming-soon-page";

export const generateMetadata = () => pageMetadata("settings");

export default function SettingsPage() {
  return <ComingSoonPage page="settings" />;
}
