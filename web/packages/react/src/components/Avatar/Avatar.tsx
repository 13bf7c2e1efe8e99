import { useId } from 'react'

export type AvatarProps = { address: string; size?: number }

/** FNV-1a over the address: a small, stable hash so the same address always draws the same avatar. */
function hash(text: string, seed: number): number {
  let h = 0x811c9dc5 ^ seed
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** Three colours and a gradient angle derived deterministically from the address. */
export function avatarColors(address: string): { colors: [string, string, string]; angle: number } {
  const normalized = address.toLowerCase()
  const color = (seed: number) => {
    const h = hash(normalized, seed)
    return `hsl(${h % 360} ${55 + (h >> 9) % 30}% ${45 + (h >> 17) % 20}%)`
  }
  return { colors: [color(1), color(2), color(3)], angle: hash(normalized, 4) % 360 }
}

/** A gradient circle generated from the address (no image, no dependency). */
export function Avatar({ address, size = 24 }: AvatarProps) {
  const id = useId()
  const { colors, angle } = avatarColors(address)
  const radial = `${id}-r`
  const linear = `${id}-l`
  return (
    <svg className="latch-avatar" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" data-address={address}>
      <defs>
        <linearGradient id={linear} gradientTransform={`rotate(${angle} 0.5 0.5)`}>
          <stop offset="0%" stopColor={colors[0]} />
          <stop offset="100%" stopColor={colors[1]} />
        </linearGradient>
        <radialGradient id={radial} cx="30%" cy="30%" r="70%">
          <stop offset="0%" stopColor={colors[2]} stopOpacity="0.9" />
          <stop offset="100%" stopColor={colors[2]} stopOpacity="0" />
        </radialGradient>
      </defs>
      <circle cx="16" cy="16" r="16" fill={`url(#${linear})`} />
      <circle cx="16" cy="16" r="16" fill={`url(#${radial})`} />
    </svg>
  )
}
