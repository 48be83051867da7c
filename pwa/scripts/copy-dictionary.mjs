// Writes a preset dictionary for the operator's copy (pwa/js/autocopy/lz.js, codec.js version 2):
//   node pwa/scripts/copy-dictionary.mjs <id>
// A dictionary is FROZEN once a phone has signed a copy with it: the copy's texts only decode
// with the same bytes, so a printed or saved copy of years ago needs them as they were. Never
// re-run this for an id that exists (the script refuses); a better dictionary is a new id,
// added to DICTIONARIES in codec.js beside the old ones.
//
// What goes in (the words a copy's texts are made of): every infraction of the rule packs as the
// phone writes it into the copy, "title\0citation\0" (the copy's own order, so a whole infraction
// is one match); the instances a defence or appeal goes to; the amount units; words of a place
// ("Avenida", "esquina com"); then the laws' own frequent words, for titles no pack has yet.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { citationLabel } from '../js/fiscal/checklist-model.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const id = Number(process.argv[2]);
if (!Number.isInteger(id) || id < 1 || id > 255) throw new Error('usage: copy-dictionary.mjs <id 1..255>');
const target = join(root, 'pwa', 'js', 'autocopy', `dictionary-${id}.js`);
if (existsSync(target)) throw new Error(`${target} exists and is frozen: choose a new id`);

const packsDir = join(root, 'shared_rules', 'packs');
const packs = readdirSync(packsDir).filter((f) => f.endsWith('.json')).sort()
  .map((f) => JSON.parse(readFileSync(join(packsDir, f), 'utf8')));
const rules = { packs };
const unique = (list) => [...new Set(list.filter(Boolean))];

const infractions = unique(packs.flatMap((p) => (p.infractions || [])
  .map((inf) => `${inf.label_pt}\0${citationLabel(rules, inf.citation)}\0`)));
const instances = unique(packs.flatMap((p) => (p.deadlines || []).map((d) => d.instance_pt)));
const units = unique(packs.flatMap((p) => (p.infractions || []).map((inf) => inf.amount?.unit)));
const place = ['Rua ', 'Avenida ', 'Av. ', 'Praça ', 'Travessa ', 'Rodovia ', 'Estrada ', 'Alameda ',
  'esquina com a ', 'em frente ao ', 'em frente à ', 'próximo ao ', 'próximo à ', 'ao lado do ',
  'Bairro ', 'Jardim ', 'Vila ', 'Setor ', 'Distrito ', 'Centro', 'Ponto de moto-táxi ', 'Rodoviária',
  'Hospital ', 'Mercado ', 'Escola ', 'Igreja ', 'Posto ', 'nº ', 's/n', 'km ', 'MT-', 'BR-'];

// The laws' words by how much they would save (occurrences × letters, the longest first among
// equals), leaving out those the packs' texts above already hold: for a title no pack has yet.
// 300 words cost under 2 KB of gzip on the issued-auto screen for ~5 % of such a title's
// bytes; 728 words saved 10 % for 3 KB more.
const packText = [place.join(''), units.join(' '), instances.join('\0'), infractions.join('')].join('\0');
const lawsDir = join(root, 'shared_rules', 'laws');
const counts = new Map();
for (const file of readdirSync(lawsDir).filter((f) => f.endsWith('.txt')).sort()) {
  for (const word of readFileSync(join(lawsDir, file), 'utf8').match(/\p{L}{5,}/gu) || []) {
    counts.set(word, (counts.get(word) || 0) + 1);
  }
}
const lawWords = [...counts].filter(([word, n]) => n >= 2 && !packText.includes(word))
  .sort((a, b) => b[1] * b[0].length - a[1] * a[0].length || b[0].length - a[0].length || (a[0] < b[0] ? -1 : 1))
  .slice(0, 300).map(([word]) => word);

// Least likely first: a match's cost does not depend on its distance, but the dictionary's end
// is nearest the data, so what a copy most often repeats goes last.
const text = [lawWords.join(' '), ' ', packText].join('');
const bytes = Buffer.byteLength(text, 'utf8');
if (bytes > 60000) throw new Error(`dictionary of ${bytes} bytes: LZ distances reach 65535 only`);
writeFileSync(target, `// Preset dictionary ${id} of the operator's copy (codec.js version 2, lz.js), ${bytes} bytes of UTF-8.
// Written by pwa/scripts/copy-dictionary.mjs from the rule packs and laws of its day. FROZEN:
// copies signed with it decode with these exact bytes only. Never edit; make a new id instead.
export default ${JSON.stringify(text)};
`);
console.log(`${target}: ${bytes} bytes (${infractions.length} infractions, ${lawWords.length} law words)`);
