// DSNs as they may be shown, and the database password kept apart from them.
// What the agent sees or a log keeps never has user info: the URL is parsed
// and rebuilt from scheme, host, port and database (a regex over the text
// leaks parts of passwords that contain `@`, `/` or `:`).

const SECRET_PARAMS = new Set(['password', 'sslpassword', 'user', 'passfile', 'sslkey']);

function isSqlite(dsn: string): boolean {
  return dsn.startsWith('sqlite:');
}

function parseUrl(dsn: string): URL | undefined {
  try {
    return new URL(dsn);
  } catch {
    return undefined;
  }
}

/** True for `postgres://…` and `postgresql://…`. */
export function isPostgresDsn(dsn: string): boolean {
  return /^postgres(ql)?:\/\//i.test(dsn.trim());
}

/**
 * The DSN without user, password or secret parameters, e.g.
 * `postgres://db.example:5432/crm`. SQLite DSNs are paths and stay as they are;
 * a URL that cannot be parsed is not shown at all.
 */
export function redactDsn(dsn: string): string {
  const text = dsn.trim();
  if (isSqlite(text)) return text;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1];
  const url = parseUrl(text);
  if (!url || !scheme) return scheme ? `${scheme}://(hidden: the DSN could not be read as a URL)` : '(hidden: not a DSN)';
  const params = [...url.searchParams].filter(([key]) => !SECRET_PARAMS.has(key.toLowerCase()));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  return `${url.protocol}//${url.host}${url.pathname}${query}`;
}

/**
 * The DSN as the person gave it, only without its password (user info and the `password` and
 * `sslpassword` parameters), for a command printed to the person to run: unlike redactDsn it
 * keeps the user, without whom PostgreSQL refuses the connection. The password then comes
 * from PGPASSWORD or ~/.pgpass, as the driver looks there.
 */
export function dsnWithoutPassword(dsn: string): string {
  const text = dsn.trim();
  if (isSqlite(text)) return text;
  const url = parseUrl(text);
  if (!url) return redactDsn(text);
  url.password = '';
  for (const key of [...url.searchParams.keys()]) {
    if (key.toLowerCase() === 'password' || key.toLowerCase() === 'sslpassword') url.searchParams.delete(key);
  }
  return url.toString();
}

/** True when the DSN itself carries a password (in the user info or a `password` parameter). */
export function dsnHasPassword(dsn: string): boolean {
  const url = isSqlite(dsn) ? undefined : parseUrl(dsn.trim());
  if (!url) return /:\/\/[^/?#]*:[^/?#]*@/.test(dsn);
  return url.password !== '' || url.searchParams.has('password');
}

/** Who and where a PostgreSQL DSN connects: `user@host:port/database` (defaults filled in). */
export function dsnTarget(dsn: string): string | undefined {
  if (!isPostgresDsn(dsn)) return undefined;
  const url = parseUrl(dsn.trim());
  if (!url) return undefined;
  const user = decodeURIComponent(url.username || url.searchParams.get('user') || '');
  const host = (url.hostname || url.searchParams.get('host') || 'localhost').toLowerCase();
  const port = url.port || url.searchParams.get('port') || '5432';
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || user;
  return `${user ? `${user}@` : ''}${host}:${port}/${database}`;
}

/**
 * The SecretStorage key of the password for this DSN: bound to user, host,
 * port and database, so a DSN pointed elsewhere (say by a workspace's
 * settings) gets no password.
 */
export function dsnSecretKey(dsn: string): string | undefined {
  const target = dsnTarget(dsn);
  return target ? `xos.dsn.password:${target}` : undefined;
}

/** The DSN with `password` in its user info (encoded), for the driver only; never show it. */
export function withDsnPassword(dsn: string, password: string): string {
  const url = parseUrl(dsn.trim());
  if (!url) throw new Error(`the DSN ${redactDsn(dsn)} could not be read as a URL`);
  const userParam = url.searchParams.get('user');
  if (!url.username && userParam) {
    // Keep user and password together in the user info, where every driver reads them.
    url.username = encodeURIComponent(userParam);
    url.searchParams.delete('user');
  }
  if (!url.username) throw new Error(`the DSN ${redactDsn(dsn)} names no user; add one (postgres://user@host:port/database) so the password has a user`);
  url.password = encodeURIComponent(password);
  return url.toString();
}
