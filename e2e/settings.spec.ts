import { describeUiPage, UI_PAGES } from "./fixtures/ui";

describeUiPage(UI_PAGES.find((p) => p.slug === "settings")!);
