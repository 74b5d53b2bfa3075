import { describe, expect, it } from 'vitest'
import { passwordStrength } from './password-strength'

describe('passwordStrength', () => {
  it.each([
    ['', 0, ''],
    ['abc', 1, 'Password is too short'],
    ['Ab1!', 4, 'Password is too short'],
    ['abcdefgh', 2, 'Password is weak'],
    ['ABCDEFGHIJ', 2, 'Password is weak'],
    ['abcdefg1', 3, 'Password is moderate'],
    ['Abcdefg1', 4, 'Password is strong'],
    ['Abcdefg1!', 5, 'Password is very strong'],
    ['Lumen-demo-2026', 5, 'Password is very strong'],
  ])('scores %j as %i: %j', (password, score, label) => {
    expect(passwordStrength(password)).toEqual({ score, label })
  })

  it('counts letters and digits beyond ASCII', () => {
    expect(passwordStrength('Ñandú٣٤٥٦!').score).toBe(5)
  })

  it('counts a space as a symbol', () => {
    expect(passwordStrength('correct horse').score).toBe(3)
  })
})
