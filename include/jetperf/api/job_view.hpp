#pragma once
// A job as the API shows it (GET /v1/jobs/{id}, the list, results and events): its record plus
// progress, an ETA and wall-clock times as text.
#include <nlohmann/json.hpp>

#include <jetperf/store/job_store.hpp>

namespace jetperf::api {

/// A record whose row could not be read (store::job_record::unreadable) shows as state
/// "unreadable" with the reason as its error.
nlohmann::json job_json(const store::job_record& job);
/// The job as GET /v1/jobs lists it: job_json without spec, summary and provenance.
nlohmann::json job_list_item_json(const store::job_record& job);

}  // namespace jetperf::api
