// At phone width (below sm) a wide table becomes one card per row: the table and its body turn into blocks, the
// header is hidden, each row is a grid and each cell a grid item, labelled from its data-label (a ::before, so the
// cell's text stays the figure alone). Wide tables keep their horizontal scroll and min width from sm up only.

/** The <table>, the <tbody>, and a row or cell that spans the whole list (a caption, a feedback row). */
export const CARD_BLOCK = "max-sm:block";
/** The <thead>: the cards label their own cells. */
export const CARD_HEAD = "max-sm:hidden";
/** A <tr> as a card; the caller names its columns (max-sm:grid-cols-…), or takes one of the two below. */
export const CARD_GRID = "max-sm:grid max-sm:gap-x-3 max-sm:gap-y-2 max-sm:px-3 max-sm:py-2.5";
/** A <tr> as a card of two columns, or three for rows of many short figures. */
export const CARD_ROW = `${CARD_GRID} max-sm:grid-cols-2`;
export const CARD_ROW_3 = `${CARD_GRID} max-sm:grid-cols-3`;
/** A cell as a grid item without a caption (a name, a button). */
export const CARD = "max-sm:block max-sm:min-w-0 max-sm:p-0 max-sm:text-left max-sm:whitespace-normal";
/** A cell with its data-label as a small caption above the value. */
export const LABELLED = `${CARD} max-sm:before:block max-sm:before:text-[11px] max-sm:before:font-sans max-sm:before:font-normal max-sm:before:text-muted max-sm:before:content-[attr(data-label)]`;
/** Two columns of the card, or all of them. */
export const WIDE = "max-sm:col-span-2";
export const FULL = "max-sm:col-span-full";
/** A cell with nothing to show on a card (the spacer cells of a summary row). */
export const CARD_HIDDEN = "max-sm:hidden";
