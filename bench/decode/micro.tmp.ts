import { brazilianPixPayloads } from './index';
import { crc16Scan } from '../../services/decoder/src/emv/crc';
import { parseEmv } from '../../services/decoder/src/emv/tlv';
import { decodeQrText } from '../../services/decoder/src/decode/decoder';
const p = brazilianPixPayloads().filter((x) => { try { decodeQrText(x); return true; } catch { return false; } });
function time(name: string, f: (x: string) => unknown) {
  for (let w = 0; w < 20000; w++) f(p[w % p.length]!);
  const t = process.hrtime.bigint(); let n = 0; let s = 0;
  while (process.hrtime.bigint() - t < 1_000_000_000n) { for (const x of p) { if (f(x)) s++; } n += p.length; }
  console.log(name, (1e9 / n).toFixed(0), 'ns');
}
const avg = p.reduce((a, x) => a + x.length, 0) / p.length;
console.log('avg len', avg);
time('crc', (x) => crc16Scan(x, x.length - 4));
time('parseEmv', (x) => parseEmv(x));
time('decode', (x) => decodeQrText(x));
time('crc', (x) => crc16Scan(x, x.length - 4));
time('parseEmv', (x) => parseEmv(x));
time('decode', (x) => decodeQrText(x));
import { readBaseFields } from '../../services/decoder/src/decode/fields';
import { decodeBrazil } from '../../services/decoder/src/profiles/brazil';
import { classifyPixKey } from '../../services/decoder/src/checks/keys';
const parsed = new Map(p.map((x) => [x, parseEmv(x)]));
time('base', (x) => readBaseFields(parsed.get(x)!));
const bases = new Map(p.map((x) => [x, readBaseFields(parsed.get(x)!)]));
time('brazil', (x) => decodeBrazil(parsed.get(x)!, bases.get(x)!));
time('mapget', (x) => parsed.get(x) && bases.get(x));
time('classify', (x) => classifyPixKey('58540944014'));
