/**
 * The URL a client on this host dials for a server listening on `host:port`: a wildcard listen
 * address (0.0.0.0, ::) is dialled on loopback; any other host as configured.
 */
export function dialUrl(host: string, port: number): string {
  const dialHost = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${dialHost.includes(':') ? `[${dialHost}]` : dialHost}:${port}`;
}
