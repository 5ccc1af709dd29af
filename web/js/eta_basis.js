// What a job's ETA was made from (progress.eta_basis, in the job view and its progress events),
// in the words the client's watch prints: the job's own pace, the cost model and how many jobs it
// learned from, or the kind's static model.
function counted(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

export function format_eta_basis(basis) {
  if (!basis || typeof basis.source !== 'string') return '';
  if (basis.source === 'pace' && Number.isInteger(basis.points))
    return `from the pace of ${counted(basis.points, 'finished point', 'finished points')}`;
  if (basis.source === 'cost_model' && Number.isInteger(basis.jobs))
    return `from the cost model (learned from ${counted(basis.jobs, 'job', 'jobs')} on this board)`;
  if (basis.source === 'static') return "from the kind's static model";
  return `from ${basis.source}`;
}

// "ETA 1 min 40 s from the pace of 3 finished points", for a job that has an ETA.
export function eta_text(progress, format_duration) {
  const basis = format_eta_basis(progress.eta_basis);
  return `ETA ${format_duration(progress.eta_s)}${basis ? ` ${basis}` : ''}`;
}
