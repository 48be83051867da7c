// Vistoria drafts on the phone (browser glue; the pure part is vistoria-model.js). A draft is
// kept in IndexedDB "drafts" with mode "vistoria" and written on every answer, like an
// inspection; signing seals it into the outbox as a record of kind "vistoria".
import { registryFactsOf } from './inspection.js';
import { dataAgeSeconds, loadField } from './field-data.js';
import { newDraft } from './records.js';

// Registry facts about the vehicle itself (year, engine): given to the vistoria's evaluation.
// Not the vistoria's or the insurance's own dates: a vistoria is what renews them.
const NOT_PREFILLED = new Set(['vehicle.inspection_valid_until', 'insurance.valid_until']);

export function vehicleFacts(vehicle) {
  const facts = registryFactsOf({ vehicle });
  return Object.fromEntries(Object.entries(facts).filter(([name]) => name.startsWith('vehicle.') && !NOT_PREFILLED.has(name)));
}

/** A new vistoria draft for a vehicle found in the field data ({vehicle, permit, operator}). */
export async function startVistoria(found, kind) {
  const data = await loadField();
  const { vehicle, permit, operator } = found;
  return newDraft({
    mode: 'vistoria', step: 'vistoria', vistoria_kind: kind,
    vehicle: { id: vehicle.id, plate: vehicle.plate || null, make: vehicle.make || null, model: vehicle.model || null,
      year: vehicle.year_manufacture || null, facts: vehicleFacts(vehicle) },
    permit_id: permit?.id ?? null, permit_number: permit?.number ?? null, plate: vehicle.plate || null,
    operator_id: operator?.id ?? null, name: operator?.name || permit?.holder_company || null,
    data_age_s: dataAgeSeconds(data), notes: '', return_on: null, photos: [],
  });
}
