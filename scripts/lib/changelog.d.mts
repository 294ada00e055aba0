export function changelogSection(changelog: string, version: string): string | undefined;
export function tagVersion(tag: string): string | undefined;
