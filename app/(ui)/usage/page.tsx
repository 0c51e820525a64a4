import { ComingSoonPage, pageMetadata } from "@/components/shell/coming-soon-page";

export const generateMetadata = () => pageMetadata("usage");

export default function UsagePage() {
  return <ComingSoonPage page="usage" />;
}
