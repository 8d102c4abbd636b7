import DataLoader from "dataloader";

/**
 * The DataLoaders of a relation that takes arguments (a paged list under each parent): one per distinct arguments,
 * so every parent asking the same page and filter is read in one batch. `batch` answers each key's value or its own
 * error, in the order of the keys.
 */
export function loadersByArguments<Args, Key, Value>(
  batch: (args: Args, keys: readonly Key[]) => Promise<(Value | Error)[]>,
): (args: Args) => DataLoader<Key, Value> {
  const loaders = new Map<string, DataLoader<Key, Value>>();
  return (args) => {
    const key = JSON.stringify(args) ?? "";
    let loader = loaders.get(key);
    if (!loader) {
      loader = new DataLoader((keys: readonly Key[]) => batch(args, keys));
      loaders.set(key, loader);
    }
    return loader;
  };
}
