// Input shapes the tools share.
import { z } from 'zod';
import { HANDLE_MAX_LENGTH } from '../handles.ts';

/** A context name as a tool takes it: names are short, so a long one is refused before anything echoes it. */
export const contextInput = (description: string) => z.string().min(1).max(128).describe(description);

/** The handle xos_schema returned, on every tool that needs the schema (precondition 'schema'). */
export const handleInput = z.string().max(HANDLE_MAX_LENGTH).optional()
  .describe('The handle xos_schema returned. Clients without MCP sessions must pass it; with a session it is optional. It holds no data.');
