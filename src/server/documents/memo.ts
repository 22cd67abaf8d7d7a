/** `make` asked once per object (a workflow, an entity), its answer kept while the object lives. */
export function perObject<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    if (!made.has(key)) made.set(key, make(key));
    return made.get(key)!;
  };
}
