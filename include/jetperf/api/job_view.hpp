#pragma once
// A job as the API shows it (GET /v1/jobs/{id}, the list, results and events): its record plus
// progress, an ETA and wall-clock times as text.
#include <nlohmann/json.hpp>

#include <jetperf/store/job_store.hpp>

namespace jetperf::api {

nlohmann::json job_json(const store::job_record& job);

}  // namespace jetperf::api
