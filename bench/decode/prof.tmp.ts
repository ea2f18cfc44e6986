import { brazilianPixPayloads } from './index';
import { decodeQrText } from '../../services/decoder/src/decode/decoder';
const p = brazilianPixPayloads().filter((x) => { try { decodeQrText(x); return true; } catch { return false; } });
const t = Date.now(); let n = 0;
while (Date.now() - t < 4000) { for (const x of p) decodeQrText(x); n += p.length; }
console.log(n / 4);
