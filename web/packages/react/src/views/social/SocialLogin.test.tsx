import { describe, expect, it } from 'vitest'
import { socialsFor } from './SocialLogin'

describe('socialsFor', () => {
  it("keeps the project's order and the OAuth providers only (farcaster is not served)", () => {
    expect(socialsFor(['google', 'x', 'farcaster', 'discord', 'apple', 'github', 'facebook'])).toEqual(['google', 'x', 'discord', 'apple', 'github', 'facebook'])
    expect(socialsFor(['github', 'email', 'myspace'])).toEqual(['github'])
  })

  it('filters providers per Telegram mini-app platform (spec §2)', () => {
    const all = ['google', 'x', 'discord', 'apple', 'github', 'facebook']
    expect(socialsFor(all, 'ios')).toEqual(['x', 'discord', 'apple', 'github', 'facebook'])
    expect(socialsFor(all, 'macos')).toEqual(['google', 'discord', 'apple', 'github', 'facebook'])
    expect(socialsFor(all, 'android')).toEqual(['google', 'discord', 'apple', 'github'])
    expect(socialsFor(all, 'tdesktop')).toEqual(all)
  })
})
