/**
 * English captions for the demo videos and sparks (ADR 0019), by title: what a narrator
 * would say over each clip, so a fresh install shows captions in the player, a transcript
 * beside it, and search that finds a video by a phrase said in it ("Rayleigh scattering").
 * Times are seconds from the start of the clip.
 */
export type DemoCue = readonly [start: number, end: number, text: string]

export const DEMO_CAPTIONS: Record<string, readonly DemoCue[]> = {
  'Why the Sky Is Blue': [
    [0, 4, 'Sunlight looks white, but it is every colour of the rainbow at once.'],
    [4, 9, 'Air molecules scatter short wavelengths far more than long ones.'],
    [9, 14, 'This is Rayleigh scattering: it grows with the fourth power of frequency.'],
    [14, 19, 'So blue light is scattered across the whole sky and reaches us from every direction.'],
    [19, 24, 'At sunset the light crosses more air, the blue is scattered away, and reds remain.'],
    [24, 30, 'In one sentence: the shorter the wavelength, the more the air scatters it.'],
  ],
  'Why Stars Twinkle': [
    [0, 5, 'A star is so far away that its light reaches us as a single point.'],
    [5, 11, 'Pockets of warm and cool air bend that thin beam this way and that.'],
    [11, 16, 'Astronomers call this atmospheric turbulence, or seeing.'],
    [16, 22, 'Planets show a small disc instead of a point, so they shine steadily.'],
  ],
  'The Game of Life: Complexity from Four Rules': [
    [0, 5, "Conway's Game of Life is a grid of cells, each alive or dead."],
    [5, 11, 'A live cell with two or three live neighbours survives; otherwise it dies.'],
    [11, 16, 'A dead cell with exactly three live neighbours comes to life.'],
    [16, 22, 'From these four rules come gliders, oscillators and even a universal computer.'],
  ],
  'Fractals: Endless Detail from One Formula': [
    [0, 6, 'The Mandelbrot set comes from one formula: z becomes z squared plus c.'],
    [6, 12, 'Points whose values stay bounded belong to the set; the rest escape to infinity.'],
    [12, 18, 'Zoom into its edge and the same shapes appear again, smaller and smaller.'],
    [18, 24, 'That self-similarity is what makes a fractal.'],
  ],
  'Beats: Two Tones, One Wobble': [
    [0, 4, 'Two tones, 440 and 444 hertz, played together.'],
    [4, 8, 'Their waves drift in and out of step four times a second.'],
    [8, 12, 'You hear that interference as a slow wobble called a beat.'],
  ],
  'Rule 30: Chaos from One Line': [
    [0, 5, 'Rule 30 is a one-dimensional cellular automaton: each row comes from the one above.'],
    [5, 10, 'A single black cell grows into a pattern so irregular it was used to make random numbers.'],
  ],
  'Pulsars: Cosmic Lighthouses': [
    [0, 5, 'A pulsar is a spinning neutron star, the collapsed core of a massive star.'],
    [5, 10, 'Beams of radio waves sweep past Earth with every turn, like a lighthouse.'],
    [10, 14, 'Some pulsars keep time as precisely as atomic clocks.'],
  ],
  'How Screens Mix Colour': [
    [0, 4, 'Every pixel on your screen is three tiny lights: red, green and blue.'],
    [4, 9, 'Additive colour mixing turns those three into millions of colours.'],
  ],
  'Gliders: Patterns That Walk': [
    [0, 5, 'A glider is five live cells in the Game of Life.'],
    [5, 10, 'Every four generations it reappears one cell further along the diagonal.'],
    [10, 15, 'Streams of gliders can carry signals, which is how Life can compute.'],
  ],
}
