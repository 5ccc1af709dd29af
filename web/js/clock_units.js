// Clocks as people read them: MHz. The API keeps each clock in its own unit (gpu_freq_hz and
// emc_freq_hz in Hz, cpu_freq_khz in kHz, telemetry's clock channels in Hz), which on an axis
// reads "2.00e+9" and in a table as a 10-digit number; the page shows them in MHz with the unit
// in the label. Stored values, the CSV download and the API are unchanged.
import { format_number } from './dom.js';

// The factor from a column's unit to MHz: by its declared unit, else by its name's suffix (the
// summary tables declare no unit for the setting's clocks; a spec's clock lists are gpu_freqs and
// emc_freqs in Hz, cpu_freqs in kHz); null for anything not a clock.
export function mhz_factor(name, unit) {
  if (unit === 'Hz') return 1e-6;
  if (unit === 'kHz') return 1e-3;
  if (unit === 'MHz') return 1;
  if (unit) return null;
  const n = String(name || '');
  if (/freq_hz$/.test(n) || /^(gpu|emc)_freqs$/.test(n)) return 1e-6;
  if (/freq_khz$/.test(n) || n === 'cpu_freqs') return 1e-3;
  return null;
}

// A clock column's name without its unit suffix: "gpu_freq_hz" -> "gpu_freq".
export function clock_name(name) {
  return String(name).replace(/_(k|m)?hz$/i, '');
}

// "gpu_freq (MHz)" for a clock column; `fallback` for anything else.
export function clock_label(name, unit, fallback) {
  return mhz_factor(name, unit) === null ? fallback : `${clock_name(name)} (MHz)`;
}

// A clock value as MHz text ("1300.5"), or null when `v` is not a number.
export function mhz_text(v, factor) {
  return typeof v === 'number' && Number.isFinite(v) ? format_number(v * factor, 6) : null;
}

// A setting already written as text ("cpu_freq_khz=2201600,gpu_freq_hz=..."; a layers summary
// stores it so) with each clock in MHz: "cpu_freq=2201.6 MHz,...".
export function setting_text_in_mhz(text) {
  return String(text).replace(/\b(\w*freq_k?hz)=(\d+(?:\.\d+)?)/g,
    (_, name, v) => `${clock_name(name)}=${mhz_text(Number(v), mhz_factor(name, ''))} MHz`);
}
