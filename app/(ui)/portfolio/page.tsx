import { ComingSoonPage, pageMetadata } from "@/components/shell/coming-soon-page";

export const generateMetadata = () => pageMetadata("portfolio");

export default function PortfolioPage() {
  return <ComingSoonPage page="portfolio" />;
}
