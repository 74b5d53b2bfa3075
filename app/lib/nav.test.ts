import { describe, expect, it } from 'vitest'
import { navEntries } from './nav'

const labels = (role: Parameters<typeof navEntries>[0]) => {
  const { menu, bar } = navEntries(role)
  return { menu: menu.map((entry) => entry.label), bar: bar.map((entry) => entry.label) }
}

describe('navEntries', () => {
  it('gives learners Profile and Quote in the menu and the four sections in the bar', () => {
    expect(labels('user')).toEqual({ menu: ['Profile', 'Quote'], bar: ['Profile', 'Feed', 'Sparks', 'Creators'] })
  })

  it('gives creators their dashboard and Upload in both', () => {
    expect(labels('creator')).toEqual({
      menu: ['Dashboard', 'Profile', 'Upload Content'],
      bar: ['Profile', 'Feed', 'Sparks', 'Creators', 'Upload'],
    })
  })

  it('gives admins the admin console first in the menu and last in the bar', () => {
    expect(labels('admin')).toEqual({
      menu: ['Admin Dashboard', 'Dashboard', 'Profile', 'Quote'],
      bar: ['Profile', 'Feed', 'Sparks', 'Creators', 'Upload', 'Admin'],
    })
    expect(navEntries('admin').menu[0]!.to).toBe('/admin')
  })
})
