/**
 * The product's fixed lists and limits (docs/product.md, Data; Limits and timers), shared by the
 * browser and the server. The database holds the same categories
 * (`public.categories`); an integration test keeps the two equal.
 */
export const CATEGORIES = [
  { id: 'natural-sciences-physics', name: 'Natural Sciences - Physics' },
  { id: 'natural-sciences-chemistry', name: 'Natural Sciences - Chemistry' },
  { id: 'natural-sciences-biology', name: 'Natural Sciences - Biology' },
  { id: 'natural-sciences-earth-environmental-sciences', name: 'Natural Sciences - Earth & Environmental Sciences' },
  { id: 'applied-sciences-engineering', name: 'Applied Sciences - Engineering' },
  { id: 'applied-sciences-space-science-astronomy', name: 'Applied Sciences - Space Science & Astronomy' },
  { id: 'applied-sciences-medical-biomedical-sciences', name: 'Applied Sciences - Medical & Biomedical Sciences' },
  { id: 'applied-sciences-agricultural-food-sciences', name: 'Applied Sciences - Agricultural & Food Sciences' },
  {
    id: 'applied-sciences-materials-science-nanotechnology',
    name: 'Applied Sciences - Materials Science & Nanotechnology',
  },
  { id: 'technology-innovation', name: 'Technology & Innovation' },
  { id: 'education-personal-development', name: 'Education & Personal Development' },
  { id: 'business-finance', name: 'Business & Finance' },
  { id: 'health-wellness', name: 'Health & Wellness' },
  { id: 'arts-creativity', name: 'Arts & Creativity' },
  { id: 'society-culture', name: 'Society & Culture' },
  { id: 'practical-professional-skills', name: 'Practical & Professional Skills' },
  { id: 'media', name: 'Media' },
  { id: 'other', name: 'Other' },
] as const

export type CategoryId = (typeof CATEGORIES)[number]['id']
export const CATEGORY_IDS = CATEGORIES.map((category) => category.id) as [CategoryId, ...CategoryId[]]
/** The 17 a creator can choose from at sign-up; 'other' is the upload default. */
export const CREATOR_CATEGORIES = CATEGORIES.filter((category) => category.id !== 'other')
export const DEFAULT_CATEGORY: CategoryId = 'other'

export function categoryName(id: string): string {
  return CATEGORIES.find((category) => category.id === id)?.name ?? 'Other'
}

/** The sign-up checklist may show a sub-item without its prefix (docs/product.md, Data). */
export function shortCategoryName(id: string): string {
  return categoryName(id).replace(/^(Natural|Applied) Sciences - /, '')
}

export const FIELDS_OF_INTEREST = [
  'Computer Science',
  'Mathematics',
  'Physics',
  'Chemistry',
  'Biology',
  'Engineering',
  'Medicine',
  'Arts',
  'Humanities',
  'Social Sciences',
  'Business',
] as const

export const CONCENTRATIONS = [
  'Web Development',
  'Mobile Development',
  'Data Science',
  'Machine Learning',
  'Artificial Intelligence',
  'Cybersecurity',
  'Cloud Computing',
  'DevOps',
  'UX/UI Design',
  'Game Development',
] as const

export const REPORT_REASONS = [
  { id: 'inappropriate', label: 'Inappropriate content' },
  { id: 'copyright', label: 'Copyright violation' },
  { id: 'misinformation', label: 'Misinformation' },
  { id: 'harmful', label: 'Harmful or dangerous' },
  { id: 'spam', label: 'Spam' },
  { id: 'other', label: 'Other' },
] as const

export const LIMITS = {
  videoBytes: 104_857_600,
  thumbnailBytes: 5_242_880,
  portfolioVideoBytes: 52_428_800,
  portfolioImageBytes: 5_242_880,
  sparkSeconds: 60,
  sparksPageSize: 5,
  swipeThresholdPx: 10,
  cardDescription: 80,
  followingBio: 60,
  creatorsBio: 100,
  shareIdMinLength: 10,
} as const
