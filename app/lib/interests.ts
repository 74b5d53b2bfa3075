import type { CategoryId } from '~/lib/catalog'

/**
 * The content categories that suit each field of interest (sign-up's list,
 * docs/product.md, Limits and timers), for /explore's "in your field" picks.
 */
export const FIELD_CATEGORIES: Record<string, readonly CategoryId[]> = {
  'Computer Science': ['technology-innovation', 'practical-professional-skills'],
  Mathematics: ['education-personal-development', 'technology-innovation'],
  Physics: ['natural-sciences-physics', 'applied-sciences-space-science-astronomy'],
  Chemistry: ['natural-sciences-chemistry', 'applied-sciences-materials-science-nanotechnology'],
  Biology: ['natural-sciences-biology', 'applied-sciences-medical-biomedical-sciences'],
  Engineering: ['applied-sciences-engineering', 'applied-sciences-materials-science-nanotechnology'],
  Medicine: ['applied-sciences-medical-biomedical-sciences', 'health-wellness'],
  Arts: ['arts-creativity', 'media'],
  Humanities: ['society-culture', 'education-personal-development'],
  'Social Sciences': ['society-culture', 'business-finance'],
  Business: ['business-finance', 'practical-professional-skills'],
}
