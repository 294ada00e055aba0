// The public API of the XOS AST module.
export * from './schema.ts';
export { checkAst, formatPath, formatProblem, validateAst } from './validate.ts';
export type { AstProblem, AstValidation, LocatedProblem, PathSegment } from './validate.ts';
export { AstError, astFromObject, loadAstFile, parseAst } from './load.ts';
export type { AstLoadResult } from './load.ts';
export { pickLocale, resolveText } from './locale.ts';
export { buildSchemaView, displayField, exampleQuery, findInverse } from './view.ts';
export type { ContextView, FieldView, RelationView, SchemaView } from './view.ts';
