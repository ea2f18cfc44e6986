import QRCode from 'qrcode';
import { escapeHtml } from './html';

// The test QR codes as images a wallet's camera can scan (docs/sandbox-test-qrs.md "QR images"),
// encoded by the qrcode package: a QR encoder is a standard's worth of code (modes, versions,
// Reed-Solomon, masks) that we would not write or keep ourselves. Drawn here as one SVG path, so
// the page needs no script and no request of its own under the docs CSP.

/** The quiet zone the QR standard asks for around the code, in modules. */
const QUIET_ZONE = 4;

/** The dark modules of the QR code of `text`, row by row (error correction level M). */
export function qrModules(text: string): boolean[][] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const rows: boolean[][] = [];
  for (let y = 0; y < modules.size; y++) {
    const row: boolean[] = [];
    for (let x = 0; x < modules.size; x++) row.push(modules.get(y, x) === 1);
    rows.push(row);
  }
  return rows;
}

/** An SVG of the QR code of `text`, `pixels` wide, labelled with `label` for screen readers. */
export function qrSvg(text: string, label: string, pixels = 264): string {
  const rows = qrModules(text);
  const side = rows.length + 2 * QUIET_ZONE;
  const path = rows
    .flatMap((row, y) =>
      row.flatMap((dark, x) => (dark ? [`M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z`] : [])),
    )
    .join('');
  const title = escapeHtml(label);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" width="${pixels}" height="${pixels}" shape-rendering="crispEdges" role="img" aria-label="${title}"><title>${title}</title><rect width="${side}" height="${side}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
