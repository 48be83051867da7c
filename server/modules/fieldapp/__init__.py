"""The field app (PWA under pwa/), served at /app/ with its service worker."""
