// The built image, run as Kubernetes runs it (docs/testing.md "The image"): `scripts/image root`
// makes a root of the image's filesystem (read-only, with /proc, /dev and a writable /tmp), and
// every process is started in it by chroot, as the image's user, from its working directory and
// through its ENTRYPOINT, with the image's environment under the harness's.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { builtEntryPoint, ENTRY_POINTS, type Launch, type Launcher, REPO_ROOT } from '../harness';

const execFileAsync = promisify(execFile);

export interface ImageRoot {
  /** The image's filesystem, mounted read-only, on the host. */
  root: string;
  /** The image's USER, e.g. "10001:10001". */
  user: string;
  workingDir: string;
  entrypoint: string[];
  env: Record<string, string>;
}

const IMAGE_SCRIPT = path.join(REPO_ROOT, 'scripts/image');

/** Builds the image when it is missing or stale (minutes), then makes a root of it. */
export function makeImageRoot(): ImageRoot {
  const out = execFileSync(IMAGE_SCRIPT, ['root'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out) as ImageRoot;
}

export function releaseImageRoot(image: ImageRoot): void {
  execFileSync(IMAGE_SCRIPT, ['release', image.root], { stdio: 'inherit' });
}

// The harness's env holds host paths and tools (PATH, HOME, TMPDIR) that mean nothing in the image.
const HOST_ONLY = new Set(['PATH', 'HOME', 'TMPDIR']);

/** The command line that runs `argv` in the image's root, as its user, from its working directory. */
function chrootLaunch(image: ImageRoot, argv: string[], env: NodeJS.ProcessEnv): Launch {
  const own = Object.fromEntries(Object.entries(env).filter(([name]) => !HOST_ONLY.has(name)));
  return {
    command: '/usr/sbin/chroot',
    // `exec` keeps the process id, so the harness's SIGTERM reaches node itself.
    args: [
      `--userspec=${image.user}`,
      image.root,
      '/bin/sh',
      '-c',
      'cd "$0" && exec "$@"',
      image.workingDir,
      ...argv,
    ],
    cwd: '/',
    env: { ...image.env, ...own },
  };
}

// The harness's files each process reads (the mTLS certificates): copied into the image's /tmp,
// as the chart mounts a Secret's files, since the harness's log directory is not in the root.
const MOUNTED_FILES = ['GRPC_TLS_CERT_FILE', 'GRPC_TLS_KEY_FILE', 'GRPC_TLS_CA_FILE'];

/**
 * Starts each deployable from the image: its ENTRYPOINT with the chart's argument for it. The partner
 * simulator's journal moves to the image's /tmp (the harness's log directory is not in the root),
 * and the certificate files are copied there.
 */
export function imageLauncher(image: ImageRoot): Launcher {
  return (deployable, env) => {
    const inImage: NodeJS.ProcessEnv = { ...env };
    if (env.PARTNER_SIM_STATE_FILE !== undefined) {
      inImage.PARTNER_SIM_STATE_FILE = `/tmp/${path.basename(env.PARTNER_SIM_STATE_FILE)}`;
    }
    for (const name of MOUNTED_FILES) {
      const file = env[name];
      if (!file) continue;
      const inRoot = `/tmp/mounted-${deployable}-${path.basename(file)}`;
      copyFileSync(file, path.join(image.root, inRoot));
      // The image's user reads it, as a Secret volume's files are readable by the pod's user.
      chmodSync(path.join(image.root, inRoot), 0o644);
      inImage[name] = inRoot;
    }
    return chrootLaunch(image, [...image.entrypoint, builtEntryPoint(ENTRY_POINTS[deployable])], inImage);
  };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command (e.g. `node cli/bin/payoutctl.js --help`) in the image and waits for it. */
export async function runInImage(
  image: ImageRoot,
  argv: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<RunResult> {
  const launch = chrootLaunch(image, argv, env);
  try {
    const { stdout, stderr } = await execFileAsync(launch.command, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : -1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    };
  }
}
