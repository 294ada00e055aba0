// The bundled demo app: the CRM AST plus its deterministic demo records.
import type { Ast } from '../ast/schema.ts';
import demoAst from '../../media/demo/crm.json' with { type: 'json' };
import demoData from '../../media/demo/crm.data.json' with { type: 'json' };

/** The demo CRM with its `data` section (40 companies, 240 people, 320 deals). */
export function demoApp(): Ast {
  // A fresh copy each time: callers may not share or mutate module state.
  return structuredClone({ ...(demoAst as unknown as Ast), data: demoData as unknown as Ast['data'] });
}
