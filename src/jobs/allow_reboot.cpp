#include <jetperf/jobs/allow_reboot.hpp>

namespace jetperf::jobs {

const spec_field& allow_reboot_field() {
  static const spec_field field{
      "allow_reboot", spec_type::boolean, false,
      "let jetperfd reboot the board for a power mode that changes GPU power gating (nvpmodel applies "
      "such a mode only after a reboot): it journals the job and its point, switches with nvpmodel's "
      "YES (the board reboots; a simulated board restarts jetperfd) and resumes the job at that point "
      "after the boot; when the job ends the original mode is restored, with one more reboot if it "
      "needs one. false: a spec whose power modes need a reboot is refused",
      0, 0, {}};
  return field;
}

bool allows_reboot(const record& normalized_spec) {
  const auto* c = normalized_spec.find(allow_reboot_field().name);
  return c && c->boolean().value_or(false);
}

}  // namespace jetperf::jobs
