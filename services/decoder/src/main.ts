// The decoder process: `node main.js` serves until SIGTERM/SIGINT. The decoder has no database, so
// `node main.js migrate` exits at once; the command exists so every chart Job hook has one shape.
import { runServiceMain } from '@qr-payout/platform/service-main';
import { loadDecoderConfig } from './config';
import { startDecoder } from './start';

runServiceMain({
  service: 'decoder',
  loadConfig: loadDecoderConfig,
  start: (config) => startDecoder(config),
});
