-- Retention (issue "Everyday costs"): a finished job's samples stay at full rate for
-- retention_full_days, then are kept as one record per channel and second (its mean, minimum,
-- maximum and count) for retention_days, then dropped; a pinned job keeps them whole. Results,
-- points, timelines and provenance are never touched. A job without a row here is unpinned and
-- its samples are at full rate.
CREATE TABLE job_retention (
  job_id     INTEGER PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
  pinned     INTEGER NOT NULL DEFAULT 0,
  samples    TEXT    NOT NULL DEFAULT 'full' CHECK (samples IN ('full', 'downsampled', 'dropped')),
  changed_ns INTEGER NOT NULL DEFAULT 0  -- wall clock of the last change
);

-- A downsampled chunk (in sample_chunks) holds one record per second: the second's start and its
-- mean, so every reader of samples reads it as it reads any chunk. Its seconds' minimum, maximum
-- and sample count are kept here: `count` records of 24 bytes, float64 min, float64 max and int64
-- count, little-endian.
CREATE TABLE sample_chunk_seconds (
  chunk_id INTEGER PRIMARY KEY REFERENCES sample_chunks(id) ON DELETE CASCADE,
  data     BLOB    NOT NULL
);
