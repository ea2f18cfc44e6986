export * from './admin';
export * from './otlp-receiver';
export * from './ports';
export * from './processes';
export * from './readiness';
export * from './system';
