import { TRANSACTION_EVENT_TYPES } from '@qr-payout/platform/vocabulary';
import {
  type CommandSpec,
  commandHelp,
  commandTable,
  generalHelp,
  groupHelp,
  parseCommandLine,
  usageLine,
} from './args';

// The help is generated from the parser's own table (args.ts COMMANDS): these tests hold every
// subcommand's help to the table, and every example in it to the parser.

const env = { PAYOUT_ADMIN_TOKEN: 'op-token', QR_PAYOUT_API_KEY: 'qrp_test_key' };
const table = Object.entries(commandTable()) as [string, CommandSpec][];

function helpText(argv: string[]): string {
  const parsed = parseCommandLine(argv, {});
  if (parsed.type !== 'help') throw new Error(`${argv.join(' ')} gave no help`);
  return parsed.text;
}

/** Help lines are wrapped: compare with runs of whitespace made one space. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

describe('payoutctl help, generated from the command table', () => {
  it('lists every subcommand with its usage line in the general help', () => {
    for (const argv of [['help'], ['--help'], ['-h'], []]) expect(helpText(argv)).toBe(generalHelp());
    for (const [name, spec] of table) expect(generalHelp()).toContain(`  ${usageLine(name, spec)}\n`);
  });

  it.each(table)('%s --help: usage, every flag with its meaning and default, examples', (name, spec) => {
    const words = name.split(' ');
    const text = helpText([...words, '--help']);
    expect(text).toBe(commandHelp(name));
    expect(helpText([...words, '-h'])).toBe(text);
    expect(helpText(['help', ...words])).toBe(text);
    expect(text).toContain(`Usage:\n  ${usageLine(name, spec)}\n`);
    for (const [flag, option] of Object.entries(spec.options)) {
      expect(usageLine(name, spec)).toContain(`--${flag}`);
      expect(text).toMatch(new RegExp(`\\n  --${flag}\\b`));
      expect(flat(text)).toContain(flat(option.help));
      if (option.default !== undefined) expect(flat(text)).toContain(`default: ${option.default}`);
      if (option.required) expect(usageLine(name, spec)).not.toContain(`[--${flag}`);
    }
    for (const positional of spec.positionals ?? []) expect(text).toContain(`  ${positional.name}`);
    expect(spec.examples.length).toBeGreaterThan(0);
    for (const example of spec.examples) expect(text).toContain(`  ${example}\n`);
    // The admin API's options where the command calls it; the public API's key where it calls that.
    if (spec.api === 'public') {
      expect(text).toContain('QR_PAYOUT_API_KEY');
      expect(text).not.toContain('--admin-url');
    } else {
      expect(text).toContain('--admin-url URL');
      expect(text).toContain('PAYOUT_ADMIN_TOKEN');
    }
  });

  it.each(table)('%s: every example is accepted by the parser', (name, spec) => {
    for (const example of spec.examples) {
      const argv = [...example.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '').slice(1);
      const parsed = parseCommandLine(argv, env);
      expect(parsed.type !== 'help' && parsed.command.kind).toBe(spec.api === 'public' ? 'trigger' : name);
    }
  });

  it.each(table)('%s: refuses a flag the table does not list', (name) => {
    expect(() => parseCommandLine([...name.split(' '), '--no-such-flag', 'x'], env)).toThrow(
      /Unknown option/,
    );
  });

  it('answers a group with its subcommands', () => {
    const text = helpText(['endpoint']);
    expect(text).toBe(groupHelp('endpoint'));
    expect(helpText(['endpoint', '--help'])).toBe(text);
    expect(helpText(['help', 'endpoint'])).toBe(text);
    for (const [name, spec] of table.filter(([n]) => n.startsWith('endpoint '))) {
      expect(text).toContain(usageLine(name, spec));
    }
    expect(text).not.toContain('payoutctl key create');
    expect(() => parseCommandLine(['help', 'nothing'], {})).toThrow(/unknown command/);
  });

  it('states the exact --events and --header syntax the parser accepts', () => {
    const text = flat(helpText(['endpoint', 'create', '--help']));
    expect(text).toContain("--header 'NAME: VALUE'");
    expect(text).toContain('split at the first colon');
    expect(text).toContain('comma-separated or the flag repeated');
    expect(text).toContain(TRANSACTION_EVENT_TYPES.join(', '));
    expect(text).toContain("'*' alone");
    expect(text).toContain("[--events TYPES]... [--header 'NAME: VALUE']...");
    // The webhook service's URL rule (services/webhook/README.md "Endpoint rules"), as it is.
    expect(text).toContain('http and those hosts (http://127.0.0.1:9000/hook) only where');
    expect(text).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true, as the sandbox does');
    // As the help says: a comma list and a repeated flag add up; a header splits at its first colon.
    const parsed = parseCommandLine(
      [
        'endpoint',
        'create',
        '--tenant',
        't',
        '--url',
        'https://m.example',
        '--events',
        'transaction.completed,transaction.failed',
        '--events',
        'transaction.completed',
        '--header',
        'Authorization: Bearer a:b',
      ],
      env,
    );
    expect(parsed.type === 'run' && parsed.command).toMatchObject({
      eventTypes: ['transaction.completed', 'transaction.failed'],
      headers: [{ name: 'Authorization', value: 'Bearer a:b' }],
    });
  });

  it('checks choices from the table and names them in the error and the help', () => {
    expect(() => parseCommandLine(['delivery', 'list', '--tenant', 't', '--status', 'lost'], env)).toThrow(
      '--status must be one of pending, delivering, delivered, failed, exhausted',
    );
    expect(flat(helpText(['delivery', 'list', '--help']))).toContain(
      'one of pending, delivering, delivered, failed, exhausted',
    );
  });
});
