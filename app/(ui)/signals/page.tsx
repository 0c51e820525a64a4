import { ComingSoonPage, pageMetadata } from "@/components/shell/coming-soon-page";

export const generateMetadata = () => pageMetadata("signals");

export default function SignalsPage() {
  return <ComingSoonPage page="signals" />;
}
