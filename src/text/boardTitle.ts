// The Board's tab title, one rule for the tab in VS Code and the browser Board's page:
// "XOS Board · Chinook" (the app's name tells two apps' Boards apart).
export function boardTitle(title: string, app: string): string {
  return app ? `${title} · ${app}` : title;
}
