import { useCallback, useEffect, useState, type KeyboardEvent } from "react";

/**
 * useListNavigation keeps one active index in a list of `count` items and moves it with the
 * keyboard: ArrowUp/ArrowDown step (stopping at the ends), Home/End jump, Enter opens.
 */
export function useListNavigation(count: number, onOpen: (index: number) => void) {
  const [active, setActive] = useState(0);

  useEffect(() => {
    setActive((a) => (count === 0 ? 0 : Math.min(a, count - 1)));
  }, [count]);

  const onKeyDown = useCallback(
    (e: KeyboardEvent) => {
      if (count === 0) return;
      let next: number | null = null;
      switch (e.key) {
        case "ArrowDown":
          next = Math.min(active + 1, count - 1);
          break;
        case "ArrowUp":
          next = Math.max(active - 1, 0);
          break;
        case "Home":
          next = 0;
          break;
        case "End":
          next = count - 1;
          break;
        case "Enter":
          e.preventDefault();
          onOpen(active);
          return;
        default:
          return;
      }
      e.preventDefault();
      setActive(next);
    },
    [active, count, onOpen],
  );

  return { active, setActive, onKeyDown };
}
