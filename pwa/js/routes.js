// Every screen of the field app, one line each. Screens load on demand; all files are
// precached by the service worker, so lazy loading still works offline.
// Later field screens (scan, checklist, autos, sync) add their line here.
export const routes = [
  { path: '/', title: '', load: () => import('./ui/home.js') },
  { path: '/operador/entrar', title: 'Primeiro acesso', load: () => import('./ui/operator-login.js') },
  { path: '/operador/cracha', title: 'Crachá digital', load: () => import('./ui/operator-badge.js') },
  { path: '/operador/autos', title: 'Minhas autuações', load: () => import('./ui/operator-autos.js') },
];
