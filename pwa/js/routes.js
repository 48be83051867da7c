// Every screen of the field app, one line each. Screens load on demand; all files are
// precached by the service worker, so lazy loading still works offline.
export const routes = [
  { path: '/', title: '', load: () => import('./ui/home.js') },
  { path: '/operador/entrar', title: 'Primeiro acesso', load: () => import('./ui/operator-login.js') },
  { path: '/operador/cracha', title: 'Crachá digital', load: () => import('./ui/operator-badge.js') },
  { path: '/operador/autos', title: 'Minhas autuações', load: () => import('./ui/operator-autos.js') },
  { path: '/fiscal', title: 'Fiscal', load: () => import('./ui/fiscal-home.js') },
  { path: '/fiscal/entrar', title: 'Sou fiscal', load: () => import('./ui/fiscal-enroll.js') },
  { path: '/fiscal/pin', title: 'PIN', load: () => import('./ui/fiscal-pin.js') },
  { path: '/fiscal/dados', title: 'Dados', load: () => import('./ui/fiscal-data.js') },
  { path: '/fiscal/ler', title: 'Ler crachá', load: () => import('./ui/fiscal-scan.js') },
  { path: '/fiscal/buscar', title: 'Buscar', load: () => import('./ui/fiscal-search.js') },
  { path: '/fiscal/sem-cracha', title: 'Sem crachá', load: () => import('./ui/fiscal-unidentified.js') },
  { path: '/fiscal/verificacao', title: 'Verificação', load: () => import('./ui/fiscal-verdict.js') },
  { path: '/fiscal/checklist', title: 'Checklist', load: () => import('./ui/fiscal-checklist.js') },
  { path: '/fiscal/resultado', title: 'Resultado', load: () => import('./ui/fiscal-result.js') },
  { path: '/fiscal/auto', title: 'Auto de infração', load: () => import('./ui/fiscal-auto.js') },
  { path: '/fiscal/auto-emitido', title: 'Auto emitido', load: () => import('./ui/fiscal-auto-issued.js') },
  { path: '/fiscal/cancelar', title: 'Solicitar cancelamento', load: () => import('./ui/fiscal-cancel.js') },
  { path: '/fiscal/hoje', title: 'Hoje', load: () => import('./ui/fiscal-today.js') },
];
