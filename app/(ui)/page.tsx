import { ComingSoonPage, pageMetadata } from "@/components/shell/coming-soon-page";

export const generateMetadata = () => pageMetadata("analyze");

export default function AnalyzePage() {
  return <ComingSoonPage page="analyze" />;
}
