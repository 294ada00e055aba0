// The one list of XOS tools, in the order the workflow uses them.
import type { XosTool } from './ports.ts';
import { contactsTool } from './tools/contacts.ts';
import { mailComposeTool } from './tools/mailCompose.ts';
import { mailSendTool } from './tools/mailSend.ts';
import { queryTool } from './tools/query.ts';
import { renderTool } from './tools/render.ts';
import { schemaTool } from './tools/schema.ts';
import { systemStatusTool } from './tools/systemStatus.ts';
import { uiChangeRequiredTool } from './tools/uiChangeRequired.ts';
import { uiSaveTool } from './tools/uiSave.ts';

export const XOS_TOOLS: readonly XosTool[] = [
  schemaTool,
  queryTool,
  renderTool,
  uiChangeRequiredTool,
  uiSaveTool,
  systemStatusTool,
  contactsTool,
  mailComposeTool,
  mailSendTool,
] as readonly XosTool[];

export const XOS_TOOL_NAMES: readonly string[] = XOS_TOOLS.map((tool) => tool.name);
