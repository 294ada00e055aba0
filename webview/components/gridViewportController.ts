// The scrolling part of a virtualised grid (<xos-list-grid>, <xos-review-grid>), as a Lit
// ReactiveController: the scroll position and the body's height (each change renders the grid
// again), the rows on screen, the rows to render in their slots, and scrolling a row into view.
// The grid renders a `.viewport` whose @scroll is `onScroll`, with a sticky header of
// `headerHeight` above rows of `rowHeight`.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { overscanned, pageRows, rowSlots, scrollTopToShow, visibleRows, type RowSlots, type ViewportInput, type VisibleRows } from './gridViewport.ts';

/** Rows rendered above and below the screen, so a small scroll shows no gap (each costs layout per frame). */
const OVERSCAN = 2;
/** How often the rows' positioning anchor moves (in rows). */
const ANCHOR_ROWS = 1000;

export type GridViewportHost = ReactiveControllerHost & { readonly renderRoot: HTMLElement | DocumentFragment };

export interface GridViewportOptions {
  readonly rowHeight: number;
  readonly headerHeight: number;
  /** How many rows the grid has now. */
  readonly total: () => number;
}

export class GridViewportController implements ReactiveController {
  private readonly host: GridViewportHost;
  private readonly options: GridViewportOptions;
  private scrolled = 0;
  private body = 0;
  private resizeObserver: ResizeObserver | undefined;
  private started = false;
  /** The rows on screen, as of this update. */
  visible: VisibleRows = { first: 0, last: -1, top: 0 };

  constructor(host: GridViewportHost, options: GridViewportOptions) {
    this.host = host;
    this.options = options;
    host.addController(this);
  }

  /** The viewport's scroll position as the grid last rendered or read it. */
  get scrollTop(): number {
    return this.scrolled;
  }

  set scrollTop(value: number) {
    if (value === this.scrolled) return;
    this.scrolled = value;
    this.host.requestUpdate();
  }

  /** Height of the row area (the viewport without the sticky header). */
  get bodyHeight(): number {
    return this.body;
  }

  get element(): HTMLElement | null {
    return this.host.renderRoot.querySelector('.viewport');
  }

  metrics(): ViewportInput {
    return { total: this.options.total(), rowHeight: this.options.rowHeight, bodyHeight: this.body };
  }

  /** How many rows PageUp and PageDown move. */
  get page(): number {
    return pageRows(this.metrics());
  }

  /** The rows to render and to load: those on screen and a few around them. */
  get wanted(): { readonly from: number; readonly to: number } {
    return overscanned(this.visible, OVERSCAN);
  }

  /** The rows to render in their DOM slots, and where their layer sits. */
  slots(): RowSlots {
    return rowSlots(this.metrics(), this.visible, OVERSCAN, ANCHOR_ROWS);
  }

  /** The grid's size properties, one column template for the header and every row. */
  sizes(widths: readonly number[]): Record<string, string> {
    return {
      '--xos-row-height': `${this.options.rowHeight}px`,
      '--xos-header-height': `${this.options.headerHeight}px`,
      '--xos-columns': widths.map((w) => `${w}px`).join(' '),
      '--xos-width': `${widths.reduce((a, b) => a + b, 0)}px`,
    };
  }

  onScroll = (event: Event): void => {
    this.scrollTop = (event.target as HTMLElement).scrollTop;
  };

  /** Back to the first rows. */
  toTop(): void {
    this.scrollTop = 0;
    const viewport = this.element;
    if (viewport) viewport.scrollTop = 0;
  }

  /** Scrolls so the row is wholly on screen (the header row, -1, always is). */
  showRow(row: number): void {
    if (row < 0) return;
    const viewport = this.element;
    if (!viewport) return;
    const scrollTop = scrollTopToShow(this.metrics(), row, viewport.scrollTop);
    if (scrollTop !== undefined) {
      viewport.scrollTop = scrollTop;
      this.scrollTop = viewport.scrollTop;
    }
  }

  hostUpdate(): void {
    this.visible = visibleRows(this.metrics(), this.scrolled);
  }

  hostUpdated(): void {
    // Once, after the first render (as firstUpdated): the body's height follows the viewport's.
    if (this.started) return;
    this.started = true;
    const viewport = this.element;
    if (!viewport) return;
    this.resizeObserver = new ResizeObserver(() => {
      const height = Math.max(0, viewport.clientHeight - this.options.headerHeight);
      if (height === this.body) return;
      this.body = height;
      this.host.requestUpdate();
    });
    this.resizeObserver.observe(viewport);
  }

  hostDisconnected(): void {
    this.resizeObserver?.disconnect();
  }
}
