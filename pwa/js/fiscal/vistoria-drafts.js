// Vistorias in progress (drafts of mode "vistoria"), for the home and "Hoje" screens. Kept apart
// from vistoria.js so the home's module graph stays as small as it was.
import { getAll } from '../data/db.js';

export const listVistoriaDrafts = async () => (await getAll('drafts')).filter((d) => d.mode === 'vistoria');
