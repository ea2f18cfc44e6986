import { SAMPLES_PAGE_ROUTE } from '../../http/routes/docs';
import { isForApiClients, type TagName } from '../../openapi/reference';

interface DescribedOperation {
  operationId?: string;
  tags?: readonly TagName[];
  description?: string;
}

/**
 * Ends the description of each operation API clients call with the link to its samples, last so
 * Swagger UI shows it under the error links (docs/api/README.md "Samples").
 */
export function withSamplesLinks<P extends Record<string, Record<string, DescribedOperation>>>(paths: P): P {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      if (!operation.operationId || !isForApiClients(operation.tags ?? [])) continue;
      const href = `${SAMPLES_PAGE_ROUTE.url}#${operation.operationId}`;
      operation.description = `${operation.description ?? ''}\n\nSamples in curl, TypeScript, Python and Go: [${href}](${href}).`;
    }
  }
  return paths;
}
