import { ComingSoonPage, pageMetadata } from "@/components/shell/coming-soon-page";

export const generateMetadata = () => pageMetadata("alerts");

export default function AlertsPage() {
  return <ComingSoonPage page="alerts" />;
}
