// A record as the Board and the use cases hold it: its fields by name (a ref as `{ id, name }`).
// Apart from domain.ts, which gathers the domain's types, so that review.ts needs no import of it back.
export type BoardRecord = Record<string, unknown>;
