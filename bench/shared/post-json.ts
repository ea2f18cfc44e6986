// One JSON POST over a keep-alive agent, the answer read whole: the bench's clients (bench/pay's
// load, the pay skeleton's partner legs) all send this way.
import http from 'node:http';

export function postJson(
  agent: http.Agent,
  url: URL,
  body: string,
  opts: { headers?: Record<string, string>; timeoutMs: number },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...opts.headers,
        },
        timeout: opts.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}
