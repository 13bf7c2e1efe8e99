import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react'

/**
 * The measured height of `ref`'s content, so the modal can animate height (150 ms, spec §9) — CSS alone
 * cannot transition to `height: auto`. Undefined where ResizeObserver is missing (height stays auto).
 * The element may appear after the first render (the dialog renders nothing while closed): every render checks
 * whether `ref` now points at another element and observes that one.
 */
export function useAnimatedHeight(ref: RefObject<HTMLElement | null>): number | undefined {
  const [height, setHeight] = useState<number | undefined>(undefined)
  const watched = useRef<{ node: HTMLElement | null; observer?: ResizeObserver }>({ node: null })
  useLayoutEffect(() => {
    const node = ref.current
    const w = watched.current
    if (node === w.node || typeof ResizeObserver === 'undefined') return
    w.observer?.disconnect()
    w.node = node
    w.observer = undefined
    if (!node) return setHeight(undefined)
    w.observer = new ResizeObserver(([entry]) => {
      if (entry) setHeight(entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height)
    })
    w.observer.observe(node)
  })
  useEffect(() => () => watched.current.observer?.disconnect(), [])
  return height
}
