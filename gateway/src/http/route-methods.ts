// The methods each public path has, for 405 MethodNotAllowed (docs/api/errors.md "Error names"):
// a request whose path exists under other methods is answered 405 with their `Allow` list
// (RFC 9110, "405 Method Not Allowed"), a path that does not exist 404 NotFoundError.

export interface RouteMethods {
  /** Records a route as Fastify's onRoute hook sees it. */
  add(method: string | string[], url: string): void;
  /** The methods of the routes whose pattern matches `path`, sorted; empty when none does. */
  allowed(path: string): string[];
}

/** A Fastify route pattern as a RegExp: `:param` is one non-empty segment, `*` the rest. */
function patternToRegExp(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}$`);
}

export function createRouteMethods(): RouteMethods {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  return {
    add(method, url) {
      routes.push({ pattern: patternToRegExp(url), methods: [method].flat() });
    },
    allowed(path) {
      const methods = new Set<string>();
      for (const route of routes)
        if (route.pattern.test(path)) for (const method of route.methods) methods.add(method);
      return [...methods].sort();
    },
  };
}
