// Small GraphQL-over-HTTP client for tests: returns status and parsed body.
export interface GqlResponse {
  status: number;
  body: { data?: Record<string, unknown> | null; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
}

export async function gql(url: string, query: string, variables?: Record<string, unknown>, token?: string): Promise<GqlResponse> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: await res.json() as GqlResponse['body'] };
}

/** The data of a response that must have succeeded. */
export async function gqlData(url: string, query: string, variables?: Record<string, unknown>, token?: string): Promise<Record<string, any>> {
  const { status, body } = await gql(url, query, variables, token);
  if (status !== 200 || body.errors) throw new Error(`GraphQL failed (${status}): ${JSON.stringify(body.errors)}`);
  return body.data as Record<string, any>;
}
