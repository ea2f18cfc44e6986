// The body of one page of a newest-first list (the response schema is pagedListSchema in
// schemas.ts; docs/api/resources.md "Listing transactions"): the items under the list's own key,
// `next_cursor` (null on the last page, where the service's cursor is empty) and `request_id`.
import type { PageInfo } from '@qr-payout/proto/payout/common/v1/common_pb';

export type PageBody<K extends string, T> = { [key in K]: T[] } & {
  next_cursor: string | null;
  request_id: string;
};

export function pageBody<K extends string, T>(
  key: K,
  items: T[],
  pageInfo: PageInfo | undefined,
  requestId: string,
): PageBody<K, T> {
  return { [key]: items, next_cursor: pageInfo?.nextCursor || null, request_id: requestId } as PageBody<K, T>;
}
