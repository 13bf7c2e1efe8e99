// Builds the frame into internal/frameapp/dist: removes the previous build
// (keeping the committed placeholder that lets `go build` work on a fresh
// clone), then runs vite build.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const dist = fileURLToPath(new URL('../../../../internal/frameapp/dist/', import.meta.url))
rmSync(dist + 'index.html', { force: true })
rmSync(dist + 'assets', { force: true, recursive: true })
execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit', cwd: fileURLToPath(new URL('..', import.meta.url)) })
