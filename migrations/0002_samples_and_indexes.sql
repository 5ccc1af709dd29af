-- Telemetry samples, stored in chunks: a row per sample cannot keep up with 1 M samples/s nor
-- average a million samples in milliseconds. One chunk holds the samples of one channel from one
-- insert batch, sorted by time, with their count and sum so that a mean over a window only decodes
-- the chunks cut by the window's edges.
--
-- data: `count` records of 16 bytes, each int64 t_ns then IEEE-754 float64 value, both
-- little-endian whatever the host (include/jetperf/store/detail/sample_chunk.hpp).
-- job_id 0 is history (no job running), so it is not a foreign key. data is the last column so
-- that reading count/sum never touches the blob's overflow pages.
CREATE TABLE sample_chunks (
  id         INTEGER PRIMARY KEY,
  job_id     INTEGER NOT NULL,
  channel_id INTEGER NOT NULL REFERENCES channels(id),
  t_first_ns INTEGER NOT NULL,
  t_last_ns  INTEGER NOT NULL,
  count      INTEGER NOT NULL CHECK (count > 0),
  sum        REAL    NOT NULL,
  data       BLOB    NOT NULL
);
-- Covers the window test (t_first_ns <= to AND t_last_ns >= from) and the sums of the chunks inside
-- a window, so that a mean reads only this index and the blobs of the two edge chunks.
CREATE INDEX sample_chunks_by_job_channel_time
  ON sample_chunks (job_id, channel_id, t_first_ns, t_last_ns, count, sum);

-- The job list filters by state, kind and tag; the runner takes queued jobs oldest first.
CREATE INDEX jobs_by_state ON jobs (state, id);
CREATE INDEX jobs_by_kind ON jobs (kind, id);
CREATE INDEX job_tags_by_tag ON job_tags (tag, job_id);
CREATE INDEX events_by_job ON events (job_id, id);
-- Start-up looks for the oldest open snapshot.
CREATE INDEX snapshots_open ON snapshots (restored_ns, id);
