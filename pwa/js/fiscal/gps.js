// One GPS fix with its accuracy, or "sem GPS" with the reason (denied, no fix in time…).
const REASONS = { 1: 'Permissão de localização negada.', 2: 'Posição indisponível.', 3: 'GPS sem sinal no tempo limite.' };

export function currentPosition({ timeoutMs = 8000 } = {}) {
  return new Promise((resolve) => {
    if (!navigator.geolocation) { resolve({ gps: null, gps_at: null, reason: 'Aparelho sem GPS.' }); return; }
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({
        gps: { lat: p.coords.latitude, lon: p.coords.longitude, accuracy_m: Math.round(p.coords.accuracy) },
        gps_at: new Date(p.timestamp).toISOString(), reason: null,
      }),
      (e) => resolve({ gps: null, gps_at: null, reason: REASONS[e.code] || 'GPS indisponível.' }),
      { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 60000 },
    );
  });
}
