import { useLayoutEffect, useState, type RefObject } from 'react'

/**
 * The measured height of `ref`'s content, so the modal can animate height (150 ms, spec §9) — CSS alone
 * cannot transition to `height: auto`. Undefined where ResizeObserver is missing (height stays auto).
 */
export function useAnimatedHeight(ref: RefObject<HTMLElement | null>): number | undefined {
  const [height, setHeight] = useState<number | undefined>(undefined)
  useLayoutEffect(() => {
    const node = ref.current
    if (!node || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setHeight(entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height)
    })
    observer.observe(node)
    return () => observer.disconnect()
  }, [ref])
  return height
}
