// Per MCP session state and the workflow rules that depend on it.

export class McpSession {
  readonly id: string;
  /** Names of the tools this session offers (for xos_system_status). */
  readonly tools: readonly string[];
  private loaded = false;

  constructor(id: string, tools: readonly string[]) {
    this.id = id;
    this.tools = tools;
  }

  get schemaLoaded(): boolean {
    return this.loaded;
  }

  markSchemaLoaded(): void {
    this.loaded = true;
  }

  /** Why a data tool may not run yet, or undefined when it may. */
  schemaRequired(tool: string): string | undefined {
    if (this.loaded) return undefined;
    return `Call xos_schema first: ${tool} needs the schema loaded in this session (contexts, list_fields, prompts). Then call ${tool} again.`;
  }
}
