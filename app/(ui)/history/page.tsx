import { ComingSoonPage, pageMetadata } from "@/components/shell/coming-soon-page";

export const generateMetadata = () => pageMetadata("history");

export default function HistoryPage() {
  return <ComingSoonPage page="history" />;
}
