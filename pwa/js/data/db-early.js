// Opens the field app's IndexedDB as early as the page can: index.html loads this module with
// `async`, so it runs as soon as it and db.js are fetched, while app.js's module graph is still
// loading. The open (20–140 ms at 4× CPU, more on a large registry) then overlaps that graph
// instead of following it; app.js's first screen finds it done (bench/fieldapp_perf.py).
// db.js is one module instance per page, so every later openDb() gets this same connection.
import { openDb } from './db.js';

openDb().catch((error) => console.error('IndexedDB', error));
