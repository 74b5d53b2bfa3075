/**
 * The shapes the course pages and components render (ADR 0048), made by
 * app/server/courses.server.ts: plain data, importable anywhere.
 */
import type { VideoType } from './video-types'

export interface CoursePerson {
  id: string
  username: string
  avatarUrl: string | null
}

/** A course in a list (explore, a creator's Courses tab, search results). */
export interface CourseCardItem {
  id: string
  title: string
  description: string
  category: { id: string; name: string }
  /** The cover, else the first lesson's thumbnail; null when neither. */
  imageUrl: string | null
  isPublished: boolean
  creator: CoursePerson
  lessonCount: number
  /** The sum of the lessons' known lengths, in seconds. */
  totalSeconds: number
  createdAt: string
}

export interface CourseLesson {
  videoId: string
  /** 0, 1, 2 … in course order. */
  position: number
  sectionTitle: string | null
  title: string
  type: VideoType
  durationSeconds: number | null
  thumbnailUrl: string | null
  /** Made private after it was added: only its creator (and admins) still see it. */
  isPublic: boolean
}

/** Consecutive lessons under one heading (null: lessons before any heading). */
export interface CourseSection {
  title: string | null
  lessons: CourseLesson[]
}

export interface CourseDetail {
  id: string
  title: string
  description: string
  category: { id: string; name: string }
  coverUrl: string | null
  coverPath: string | null
  isPublished: boolean
  creator: CoursePerson
  lessons: CourseLesson[]
  sections: CourseSection[]
  totalSeconds: number
  createdAt: string
  updatedAt: string
  /** The caller made it (edit, publish, delete). */
  isOwner: boolean
  /** The caller is an admin (may unpublish and delete, never edit). */
  isAdmin: boolean
}

/** Lessons grouped under their section titles, in order: a new group whenever the title changes. */
export function groupSections(lessons: CourseLesson[]): CourseSection[] {
  const sections: CourseSection[] = []
  for (const lesson of lessons) {
    const last = sections.at(-1)
    if (last && (lesson.sectionTitle === null || lesson.sectionTitle === last.title)) last.lessons.push(lesson)
    else sections.push({ title: lesson.sectionTitle, lessons: [lesson] })
  }
  return sections
}

/** Where a lesson of a course opens (the video page). */
export function lessonHref(_courseId: string, videoId: string): string {
  return `/video/${videoId}`
}
