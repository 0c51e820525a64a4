import type { ComponentType, SVGProps } from "react";
import { Icon as BaseIcon } from "@/components/ui/icons";
import type { PageKey } from "./nav-items";

// Icons of the phone's bottom tab bar (16×16 strokes like components/ui/icons); always decorative: every tab also
// shows its label, which is the link's accessible name.
function NavIcon(props: SVGProps<SVGSVGElement>) {
  return <BaseIcon width="18" height="18" {...props} />;
}

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const AnalyzeIcon: Icon = (props) => (
  <NavIcon {...props}>
    <circle cx="7" cy="7" r="4.5" />
    <path d="M10.5 10.5 14 14M5 7.5l1.25-1.5 1.5 1.25L9 5.5" />
  </NavIcon>
);

const MarketIcon: Icon = (props) => (
  <NavIcon {...props}>
    <path d="M2 13.5h12M2 11l3.5-4 3 2.5L14 3.5" />
    <path d="M10.5 3.5H14V7" />
  </NavIcon>
);

// A funnel: many stocks in, a few out.
const ScreeningIcon: Icon = (props) => (
  <NavIcon {...props}>
    <path d="M2.5 3h11l-4.25 5.25v4.25l-2.5 1.25v-5.5Z" />
  </NavIcon>
);

// A database cylinder: where the market data comes from.
const DataIcon: Icon = (props) => (
  <NavIcon {...props}>
    <ellipse cx="8" cy="3.75" rx="5" ry="1.75" />
    <path d="M3 3.75v8.5c0 .97 2.24 1.75 5 1.75s5-.78 5-1.75v-8.5" />
    <path d="M3 8c0 .97 2.24 1.75 5 1.75S13 8.97 13 8" />
  </NavIcon>
);

const ChatIcon: Icon = (props) => (
  <NavIcon {...props}>
    <path d="M2.5 3.5a1 1 0 0 1 1-1h9a1 1 0 0 1 1 1v6.5a1 1 0 0 1-1 1H7l-3 2.5V11h-.5a1 1 0 0 1-1-1Z" />
  </NavIcon>
);

const HistoryIcon: Icon = (props) => (
  <NavIcon {...props}>
    <path d="M2.5 8a5.5 5.5 0 1 0 1.6-3.9M2.5 2.5v2.25h2.25" />
    <path d="M8 5v3l2 1.25" />
  </NavIcon>
);

const SignalsIcon: Icon = (props) => (
  <NavIcon {...props}>
    <path d="M1.5 8h2.5l1.75-4.5 3 9L10.5 8h4" />
  </NavIcon>
);

const BacktestIcon: Icon = (props) => (
  <NavIcon {...props}>
    <path d="M2 2v12h12" />
    <rect x="4.5" y="8" width="2" height="3.5" />
    <rect x="8.5" y="5" width="2" height="6.5" />
    <path d="M12.5 3.5v8" />
  </NavIcon>
);

const PortfolioIcon: Icon = (props) => (
  <NavIcon {...props}>
    <rect x="1.75" y="4.5" width="12.5" height="9" rx="1" />
    <path d="M5.5 4.5V3a1 1 0 0 1 1-1h3a1 1 0 0 1 1 1v1.5M1.75 8.5h12.5" />
  </NavIcon>
);

const AlertsIcon: Icon = (props) => (
  <NavIcon {...props}>
    <path d="M4 11.5V7a4 4 0 0 1 8 0v4.5l1.25 1.5H2.75Z" />
    <path d="M6.5 14.5h3" />
  </NavIcon>
);

const UsageIcon: Icon = (props) => (
  <NavIcon {...props}>
    <path d="M2.5 11.5a5.5 5.5 0 1 1 11 0" />
    <path d="M8 11.5 10.5 7" />
    <path d="M2 14h12" />
  </NavIcon>
);

const SettingsIcon: Icon = (props) => (
  <NavIcon {...props}>
    <path d="M2.5 4.5h6M11.5 4.5h2M2.5 11.5h2M7.5 11.5h6" />
    <circle cx="10" cy="4.5" r="1.5" />
    <circle cx="6" cy="11.5" r="1.5" />
  </NavIcon>
);

export const MoreIcon: Icon = (props) => (
  <NavIcon {...props}>
    <circle cx="3.5" cy="8" r="0.9" fill="currentColor" />
    <circle cx="8" cy="8" r="0.9" fill="currentColor" />
    <circle cx="12.5" cy="8" r="0.9" fill="currentColor" />
  </NavIcon>
);

// A rising line on a sheet: a forward record of paper trades.
const PaperIcon: Icon = (props) => (
  <NavIcon {...props}>
    <path d="M2.5 2.5h11v11h-11Z" />
    <path d="M4.5 10.5l2.5-2.5 2 1.5 2.5-3.5" />
  </NavIcon>
);

export const DocsIcon: Icon = (props) => (
  <NavIcon {...props}>
    <path d="M4 1.75h5.5L12.5 4.75v9.5H4Z" />
    <path d="M9.5 1.75v3h3M6 8h4.5M6 10.75h4.5" />
  </NavIcon>
);

export const NAV_ICONS: Record<PageKey, Icon> = {
  analyze: AnalyzeIcon,
  market: MarketIcon,
  screening: ScreeningIcon,
  data: DataIcon,
  chat: ChatIcon,
  history: HistoryIcon,
  signals: SignalsIcon,
  backtest: BacktestIcon,
  portfolio: PortfolioIcon,
  paper: PaperIcon,
  alerts: AlertsIcon,
  usage: UsageIcon,
  settings: SettingsIcon,
};
