-- Traces a command job's program wrote (PyTorch profiler / Kineto), uploaded after the job with
-- POST /v1/jobs/{id}/traces: the file lives under <database dir>/traces/ with a name the daemon
-- chose; the row keeps how its clock was aligned with the job's and the energy per op and per
-- kernel computed then. n counts a job's attachments from 1.
CREATE TABLE trace_attachments (
  job_id         INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  n              INTEGER NOT NULL,
  file           TEXT    NOT NULL,
  bytes          INTEGER NOT NULL,
  uploaded_ns    INTEGER NOT NULL,
  alignment_json TEXT    NOT NULL,
  energy_json    TEXT    NOT NULL,
  PRIMARY KEY (job_id, n)
);
