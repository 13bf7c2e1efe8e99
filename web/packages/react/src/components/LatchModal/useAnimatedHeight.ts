import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react'

/**
 * Keeps `box`'s height at the measured height of `ref`'s content, so the modal can animate height (150 ms, spec §9)
 * — CSS alone cannot transition to `height: auto`. Where ResizeObserver is missing the height stays auto.
 * The height is written to the element's style, not to React state: a change of view (or the first measure after
 * an open) then costs a style change, not another render of the whole dialog in the frames that show it.
 * The element may appear after the first render (the dialog renders nothing while closed): every render checks
 * whether `ref` now points at another element and observes that one.
 */
export function useAnimatedHeight(ref: RefObject<HTMLElement | null>, box: RefObject<HTMLElement | null>): void {
  const watched = useRef<{ node: HTMLElement | null; observer?: ResizeObserver }>({ node: null })
  useLayoutEffect(() => {
    const node = ref.current
    const w = watched.current
    if (node === w.node || typeof ResizeObserver === 'undefined') return
    w.observer?.disconnect()
    w.node = node
    w.observer = undefined
    if (!node) return
    w.observer = new ResizeObserver(([entry]) => {
      if (entry && box.current) box.current.style.height = `${entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height}px`
    })
    w.observer.observe(node)
  })
  useEffect(() => () => watched.current.observer?.disconnect(), [])
}
