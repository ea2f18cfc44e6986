import type { DescEnum } from '@bufbuild/protobuf';

// How a proto enum becomes the public lower-case names of vocabulary.ts (docs/api/resources.md
// "Transaction states"): its own module, so its rules are tested without widening the package's
// exports.

/** An enum's value names other than UNSPECIFIED, lower case, without the shared prefix. */
type NamesOf<E> = Lowercase<Exclude<Extract<keyof E, string>, 'UNSPECIFIED'>>;

/** The enum's values other than UNSPECIFIED as lower-case names, in the enum's (lifecycle) order. */
export function namesOf<E extends object>(schema: DescEnum, _enumObject: E): readonly NamesOf<E>[] {
  const prefix = schema.sharedPrefix ?? '';
  return Object.freeze(
    schema.values
      .filter((value) => value.number !== 0)
      .map((value) => value.name.slice(prefix.length).toLowerCase() as NamesOf<E>),
  );
}
