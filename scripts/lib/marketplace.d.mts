export const MARKETPLACE_CATEGORIES: ReadonlySet<string>;
export const MAX_KEYWORDS: number;
export const MIN_ICON_PIXELS: number;
export const VSIX_BUDGET_BYTES: number;
export function markdownImages(markdown: string): string[];
export function marketplaceProblems(
  manifest: Record<string, unknown>,
  options: { root: string; files?: readonly string[]; bytes?: number },
): string[];
