import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * A component loaded on first use (its own chunk): the code editor and the charting library are
 * most of the console's weight, and most visits never open either.
 */
export function lazyComponent<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | null = null;
  return function Lazy(props: P) {
    const [Component, setComponent] = useState<ComponentType<P> | null>(() => loaded);
    useEffect(() => {
      if (Component) return;
      void load().then((m) => {
        loaded = m.default;
        setComponent(() => m.default);
      });
    }, []);
    return Component ? <Component {...props} /> : <p class="hint">Loading…</p>;
  };
}
