// Next.js App Router example of @latchkit/react with server rendering.
import { fileURLToPath } from 'node:url'

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The npm workspace (web/) is the root: the @latchkit packages are links into it.
  turbopack: { root: fileURLToPath(new URL('../..', import.meta.url)) },
}

export default nextConfig
