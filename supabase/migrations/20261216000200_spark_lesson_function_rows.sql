-- The planner's guess of how many rows public.lesson_sparks() and public.spark_lessons() answer
-- (docs/performance.md, "The video page's statement, EXPLAINed").
--
-- * A set-returning function without ROWS is guessed at 1,000 rows. The video page's statement
--   joins lesson_sparks() to public.videos for the sparks' cards; at 1,000 rows the planner
--   hashes the whole videos table (a sequential scan: 30 ms of the page's 31 at 11,000 videos,
--   EXPLAIN ANALYZE as a learner) rather than look each spark up by its primary key. It did not
--   show while the lesson had no sparks (the hash is not built for an empty outer side); every
--   lesson with sparks paid it.
-- * lesson_sparks() answers at most 50 rows (its limit), a lesson a handful; spark_lessons()
--   at most one per id asked (a page of sparks, 24). 10 for both: the lookups go by primary key.
-- * Nothing else changes: same bodies, rights and answers.

alter function public.lesson_sparks(uuid) rows 10;
alter function public.spark_lessons(uuid[]) rows 10;
