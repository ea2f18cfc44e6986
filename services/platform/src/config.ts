// Typed, frozen configuration read from the environment. Every bad or missing variable is
// collected so one start-up failure names all of them; secret values are never echoed.
import { readFileSync } from 'node:fs';

export type Env = Readonly<Record<string, string | undefined>>;

type ReadResult<T> = { ok: true; value: T } | { ok: false; problem: string };

/** A reader for one variable; built by str/int/num/bool/url/oneOf/list. */
export interface ConfigReader<T> {
  readonly name: string;
  readonly secret: boolean;
  read(env: Env): ReadResult<T>;
}

type BaseOptions = { secret?: boolean };
type Defaulted<T> = BaseOptions & { default: T; optional?: false };
type Optional = BaseOptions & { optional: true; default?: undefined };
type Required = BaseOptions & { default?: undefined; optional?: false };

class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * A variable's value as every reader takes it: trimmed, and undefined when it is unset or blank (a
 * blank value counts as unset, so `FOO=` in an env file does not override a default).
 */
export function givenValue(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function reader<T>(
  name: string,
  opts: BaseOptions & { default?: T; optional?: boolean },
  parse: (raw: string) => ReadResult<T>,
): ConfigReader<T | undefined> {
  return {
    name,
    secret: opts.secret === true,
    read(env) {
      const raw = givenValue(env, name);
      if (raw === undefined) {
        if (opts.default !== undefined) return { ok: true, value: opts.default };
        if (opts.optional) return { ok: true, value: undefined };
        return { ok: false, problem: `${name} is required` };
      }
      return parse(raw);
    },
  };
}

// What a bad value looked like, unless the variable is secret.
function shown(raw: string, secret: boolean | undefined): string {
  return secret ? '' : ` (got ${JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw)})`;
}

/**
 * minLength: the fewest characters accepted; minDistinct: the fewest different characters (a token
 * that must not be guessable: 32 times "a" is 32 characters, and no secret).
 */
type StrOptions = { minLength?: number; minDistinct?: number };
export function str(name: string, opts: Defaulted<string> & StrOptions): ConfigReader<string>;
export function str(name: string, opts: Optional & StrOptions): ConfigReader<string | undefined>;
export function str(name: string, opts?: Required & StrOptions): ConfigReader<string>;
export function str(
  name: string,
  opts: BaseOptions & StrOptions & { default?: string; optional?: boolean } = {},
) {
  return reader(name, opts, (raw) => {
    if (opts.minLength !== undefined && raw.length < opts.minLength)
      return {
        ok: false,
        problem: `${name} must be at least ${opts.minLength} characters${shown(raw, opts.secret)}`,
      };
    if (opts.minDistinct !== undefined && new Set(raw).size < opts.minDistinct)
      return {
        ok: false,
        problem: `${name} must hold at least ${opts.minDistinct} different characters (a random value, e.g. \`openssl rand -base64 32\`)${shown(raw, opts.secret)}`,
      };
    return { ok: true, value: raw };
  });
}

type IntOptions = { min?: number; max?: number };
export function int(name: string, opts: Defaulted<number> & IntOptions): ConfigReader<number>;
export function int(name: string, opts: Optional & IntOptions): ConfigReader<number | undefined>;
export function int(name: string, opts?: Required & IntOptions): ConfigReader<number>;
export function int(
  name: string,
  opts: BaseOptions & IntOptions & { default?: number; optional?: boolean } = {},
) {
  return reader(name, opts, (raw) => {
    if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
      return { ok: false, problem: `${name} must be an integer${shown(raw, opts.secret)}` };
    }
    return inRange(name, Number(raw), opts, raw);
  });
}

export function num(name: string, opts: Defaulted<number> & IntOptions): ConfigReader<number>;
export function num(name: string, opts: Optional & IntOptions): ConfigReader<number | undefined>;
export function num(name: string, opts?: Required & IntOptions): ConfigReader<number>;
export function num(
  name: string,
  opts: BaseOptions & IntOptions & { default?: number; optional?: boolean } = {},
) {
  return reader(name, opts, (raw) => {
    const value = Number(raw);
    if (!Number.isFinite(value)) {
      return { ok: false, problem: `${name} must be a number${shown(raw, opts.secret)}` };
    }
    return inRange(name, value, opts, raw);
  });
}

function inRange(
  name: string,
  value: number,
  opts: IntOptions & BaseOptions,
  raw: string,
): ReadResult<number> {
  if (opts.min !== undefined && value < opts.min) {
    return { ok: false, problem: `${name} must be >= ${opts.min}${shown(raw, opts.secret)}` };
  }
  if (opts.max !== undefined && value > opts.max) {
    return { ok: false, problem: `${name} must be <= ${opts.max}${shown(raw, opts.secret)}` };
  }
  return { ok: true, value };
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

export function bool(name: string, opts: Defaulted<boolean>): ConfigReader<boolean>;
export function bool(name: string, opts: Optional): ConfigReader<boolean | undefined>;
export function bool(name: string, opts?: Required): ConfigReader<boolean>;
export function bool(name: string, opts: BaseOptions & { default?: boolean; optional?: boolean } = {}) {
  return reader(name, opts, (raw) => {
    const lower = raw.toLowerCase();
    if (TRUE.has(lower)) return { ok: true, value: true };
    if (FALSE.has(lower)) return { ok: true, value: false };
    return { ok: false, problem: `${name} must be true or false${shown(raw, opts.secret)}` };
  });
}

export function url(name: string, opts: Defaulted<string>): ConfigReader<string>;
export function url(name: string, opts: Optional): ConfigReader<string | undefined>;
export function url(name: string, opts?: Required): ConfigReader<string>;
export function url(name: string, opts: BaseOptions & { default?: string; optional?: boolean } = {}) {
  return reader(name, opts, (raw) => {
    // URLs often embed credentials (postgres://user:pass@host), so a bad one is never echoed.
    if (!URL.canParse(raw)) return { ok: false, problem: `${name} must be a valid URL` };
    return { ok: true, value: raw };
  });
}

/**
 * A PEM file (a CA bundle, a certificate, a key) named by the variable, read when the config loads:
 * its text. Refused, naming the variable and the path but never the content, when it cannot be
 * read or holds no PEM block.
 */
export function pemFile(name: string, opts: Optional): ConfigReader<string | undefined>;
export function pemFile(name: string, opts?: Required): ConfigReader<string>;
export function pemFile(name: string, opts: BaseOptions & { optional?: boolean } = {}) {
  return reader<string>(name, opts, (file) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      return {
        ok: false,
        problem: `${name}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      };
    }
    if (!text.includes('-----BEGIN ')) return { ok: false, problem: `${name}: ${file} holds no PEM block` };
    return { ok: true, value: text };
  });
}

export function oneOf<const V extends string>(
  name: string,
  values: readonly V[],
  opts: Defaulted<V>,
): ConfigReader<V>;
export function oneOf<const V extends string>(
  name: string,
  values: readonly V[],
  opts: Optional,
): ConfigReader<V | undefined>;
export function oneOf<const V extends string>(
  name: string,
  values: readonly V[],
  opts?: Required,
): ConfigReader<V>;
export function oneOf<const V extends string>(
  name: string,
  values: readonly V[],
  opts: BaseOptions & { default?: V; optional?: boolean } = {},
) {
  return reader<V>(name, opts, (raw) => {
    if ((values as readonly string[]).includes(raw)) return { ok: true, value: raw as V };
    return {
      ok: false,
      problem: `${name} must be one of ${values.join(', ')}${shown(raw, opts.secret)}`,
    };
  });
}

export function list(name: string, opts: Defaulted<string[]>): ConfigReader<string[]>;
export function list(name: string, opts: Optional): ConfigReader<string[] | undefined>;
export function list(name: string, opts?: Required): ConfigReader<string[]>;
export function list(name: string, opts: BaseOptions & { default?: string[]; optional?: boolean } = {}) {
  return reader(name, opts, (raw) => {
    const items = raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
    if (items.length === 0) return { ok: false, problem: `${name} must list at least one value` };
    return { ok: true, value: items };
  });
}

type Shape = Record<string, ConfigReader<unknown>>;
export type ConfigOf<S extends Shape> = {
  readonly [K in keyof S]: S[K] extends ConfigReader<infer T> ? T : never;
};

/** Reads every variable of `shape`; throws one ConfigError naming every problem. */
export function loadConfig<S extends Shape>(shape: S, env: Env = process.env): ConfigOf<S> {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [key, read] of Object.entries(shape)) {
    const result = read.read(env);
    if (result.ok) values[key] = result.value;
    else problems.push(result.problem);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  for (const value of Object.values(values)) if (Array.isArray(value)) Object.freeze(value);
  return Object.freeze(values) as ConfigOf<S>;
}
