import http from 'node:http';
import { isTelemetryDisabled, startTelemetry } from './start';

describe('startTelemetry with OTEL_SDK_DISABLED', () => {
  it('reads the variable as the OpenTelemetry spec does: only "true", any case, disables', () => {
    expect(isTelemetryDisabled({ OTEL_SDK_DISABLED: 'true' })).toBe(true);
    expect(isTelemetryDisabled({ OTEL_SDK_DISABLED: ' TRUE ' })).toBe(true);
    expect(isTelemetryDisabled({ OTEL_SDK_DISABLED: 'false' })).toBe(false);
    expect(isTelemetryDisabled({ OTEL_SDK_DISABLED: '1' })).toBe(false);
    expect(isTelemetryDisabled({})).toBe(false);
  });

  it('returns before creating any instrumentation, so http stays unpatched', () => {
    const emitBefore = http.Server.prototype.emit;
    const requestBefore = http.request;
    expect(startTelemetry({ serviceName: 'test', env: { OTEL_SDK_DISABLED: 'true' } })).toBe(false);
    expect(http.Server.prototype.emit).toBe(emitBefore);
    expect(http.request).toBe(requestBefore);
  });
});
