// The root layout, a server component: reads wagmi's state from the request's
// cookie so the first render on the server and in the browser agree.
import type { Metadata } from 'next'
import { headers } from 'next/headers'
import type { ReactNode } from 'react'
import { cookieToInitialState } from 'wagmi'
import '@latchkit/react/styles.css'
import { wagmiConfig, type LatchSettings } from './latch'
import { Providers } from './providers'

export const metadata: Metadata = { title: 'Latch · Next.js example' }

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Read per request: `latchd dev` prints its project id and API address when it starts.
  const settings: LatchSettings = {
    apiUrl: process.env.LATCH_API_URL ?? 'http://127.0.0.1:8080',
    projectId: process.env.LATCH_PROJECT_ID,
  }
  const initialState = cookieToInitialState(wagmiConfig(settings), (await headers()).get('cookie'))
  return (
    <html lang="en">
      <body>
        <Providers settings={settings} initialState={initialState}>
          {children}
        </Providers>
      </body>
    </html>
  )
}
