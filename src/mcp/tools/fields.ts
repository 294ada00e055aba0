// Input shapes the tools share.
import { z } from 'zod';

/** A context name as a tool takes it: names are short, so a long one is refused before anything echoes it. */
export const contextInput = (description: string) => z.string().min(1).max(128).describe(description);
